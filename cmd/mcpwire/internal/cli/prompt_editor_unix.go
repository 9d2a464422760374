//go:build unix

package cli

import (
	"os"
	"syscall"
)

// stopEditor asks an editor to quit: SIGTERM, which editors catch to put
// the terminal back (vim, nano, emacs do); SIGKILL follows after
// editorGrace.
func stopEditor(p *os.Process) error { return p.Signal(syscall.SIGTERM) }
