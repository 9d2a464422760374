//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cli

import "os"

// terminalResizes: no SIGWINCH here; the size is read once.
func terminalResizes() (changes <-chan os.Signal, stop func()) {
	return nil, func() {}
}
