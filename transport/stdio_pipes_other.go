//go:build unix && !linux

package transport

import "os"

// childPipe returns a pipe for one of a child's standard streams (see the
// Linux version): here simply os.Pipe's.
func childPipe(childReads bool) (ours, theirs *os.File, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	if childReads {
		return w, r, nil
	}
	return r, w, nil
}
