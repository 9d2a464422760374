//go:build !unix

package privatefile

import "os"

// openNoFollow opens path with flag after checking that path is not a
// symbolic link (without O_NOFOLLOW, a link made between the check and
// the open is followed).
func openNoFollow(path string, flag int) (*os.File, error) {
	if isSymlink(path) {
		return nil, &os.PathError{Op: "open", Path: path, Err: os.ErrInvalid}
	}
	return os.OpenFile(path, flag, 0o600)
}
