//go:build unix

package transport

import (
	"os"
	"syscall"
)

// openNoFollow opens path for writing, creating it 0600 and truncating
// it, and fails (ELOOP) when path is a symbolic link.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o600)
}
