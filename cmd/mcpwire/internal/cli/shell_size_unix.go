//go:build linux || darwin || freebsd || netbsd || openbsd

package cli

import (
	"os"
	"os/signal"
	"syscall"
)

// terminalResizes signals each change of the terminal's size (SIGWINCH)
// until stop.
func terminalResizes() (changes <-chan os.Signal, stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGWINCH)
	return sig, func() { signal.Stop(sig) }
}
