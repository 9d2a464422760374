package transport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// CreateRecordFile opens path for a wire recording (NewRecorder): created
// with mode 0600, an existing file truncated and set to 0600 (a recording
// holds what the servers said, which may be private, whatever mode the
// old file had), and never through a symbolic link: a link planted at the
// path (in a shared directory, say) would send the recording, or the
// truncation, wherever it points. A link is an *fs.PathError naming the path.
func CreateRecordFile(path string) (*os.File, error) {
	f, err := openNoFollow(path)
	if err != nil {
		if isSymlink(path) {
			return nil, &fs.PathError{Op: "create", Path: path, Err: errors.New("it is a symbolic link, and a recording is never written through one")}
		}
		return nil, err
	}
	info, err := f.Stat()
	if err == nil && info.Mode().IsRegular() && info.Mode().Perm() != 0o600 {
		err = f.Chmod(0o600)
	}
	if err != nil {
		f.Close()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, &fs.PathError{Op: "chmod", Path: path, Err: fmt.Errorf("making it readable only by you: %w", err)}
	}
	return f, nil
}

// isSymlink reports whether path itself (not what it points at) is a
// symbolic link.
func isSymlink(path string) bool {
	info, err := os.Lstat(path)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}
