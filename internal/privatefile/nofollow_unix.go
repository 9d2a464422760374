//go:build unix

package privatefile

import (
	"os"
	"syscall"
)

// openNoFollow opens path with flag, failing (ELOOP) on a symbolic link
// instead of following it.
func openNoFollow(path string, flag int) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW, 0o600)
}
