//go:build !unix

package transport

import (
	"fmt"
	"os"
)

// openNoFollow opens path for writing, creating it 0600 and truncating
// it, after checking that path is not a symbolic link (without
// O_NOFOLLOW, a link made between the check and the open is followed).
func openNoFollow(path string) (*os.File, error) {
	if isSymlink(path) {
		return nil, fmt.Errorf("%s is a symbolic link", path)
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
}
