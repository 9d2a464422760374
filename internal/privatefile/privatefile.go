// Package privatefile opens the files mcpwire writes what others must not
// read: wire recordings (--record) and the gateway's audit log. Both are
// opened the same way: created with mode 0600, an existing file set to
// 0600 whatever mode it had, and never through a symbolic link, since a
// link planted at the path (in a shared directory, say) would send the
// writes, or a truncation, wherever it points.
package privatefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Mode says what happens to an existing file's content.
type Mode int

const (
	// Truncate starts the file afresh (a recording of this run).
	Truncate Mode = iota
	// Append keeps it and writes after it (a log kept across runs).
	Append
)

// Open opens path for writing as the package describes. what names the
// file in the refusal of a link ("a recording", "the audit log"). Its
// errors are *fs.PathError naming path.
func Open(path string, mode Mode, what string) (*os.File, error) {
	flag := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if mode == Append {
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := openNoFollow(path, flag)
	if err != nil {
		if isSymlink(path) {
			return nil, &fs.PathError{Op: "create", Path: path, Err: fmt.Errorf("it is a symbolic link, and %s is never written through one", what)}
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
