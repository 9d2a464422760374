//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cli

import "os"

// isTTY reports whether f is a terminal, as well as can be told here.
func isTTY(f *os.File) bool { return isTerminal(f) }
