//go:build unix && !linux

package transport

import "os/exec"

// startChild starts cmd on the calling thread; release has nothing to do.
// Only Linux has a parent-death signal: elsewhere, where the guard cannot
// run, a SIGKILLed mcpwire leaves its servers to notice the end of their
// stdin.
func startChild(cmd *exec.Cmd, _ bool) (release func(), err error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return func() {}, nil
}
