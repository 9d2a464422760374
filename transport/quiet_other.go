//go:build !linux

package transport

import "os"

// quietFile is Linux's (quiet_linux.go); elsewhere files are read as
// they are.
type quietFile struct{ *os.File }

func newQuietFile(*os.File) *quietFile { return nil }
