package transport

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// lookPath resolves command the way exec.LookPath would in the child: a
// name without a slash is searched in pathList (the child's PATH, of which
// only absolute entries count, as with exec.ErrDot); a path with a slash is
// used as is, relative to dir. Errors name the command, not the PATH, and
// wrap exec.ErrNotFound when nothing was found.
func lookPath(command, pathList, dir string) (string, error) {
	if strings.Contains(command, "/") {
		path := command
		if !filepath.IsAbs(path) {
			base := dir
			if base == "" {
				wd, err := os.Getwd()
				if err != nil {
					return "", fmt.Errorf("transport: command %q: %w", command, err)
				}
				base = wd
			}
			path = filepath.Join(base, path)
		}
		if err := checkExecutable(path); err != nil {
			return "", fmt.Errorf("transport: command %q: %w", command, err)
		}
		return path, nil
	}
	for _, d := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(d) {
			continue
		}
		path := filepath.Join(d, command)
		if checkExecutable(path) == nil {
			return path, nil
		}
	}
	if pathList == "" {
		return "", fmt.Errorf("transport: command %q: %w", command, notFound("the child's PATH is empty"))
	}
	return "", fmt.Errorf("transport: command %q %w", command, notFound("not found in the child's PATH"))
}

// notFound is exec.ErrNotFound for errors.Is, with its own words: that
// error's text names $PATH, which is wrong for a path with a slash and
// says twice what the message above already said for a name.
type notFound string

func (e notFound) Error() string { return string(e) }
func (e notFound) Unwrap() error { return exec.ErrNotFound }

func checkExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return notFound("no such file")
		}
		return err
	}
	if fi.IsDir() {
		return errors.New("is a directory")
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return fs.ErrPermission
	}
	return nil
}
