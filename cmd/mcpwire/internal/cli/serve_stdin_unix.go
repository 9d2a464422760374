//go:build unix

package cli

import (
	"io"
	"os"
	"syscall"
	"time"

	servercore "github.com/mcpwire/mcpwire/internal/server"
)

// pollableStdin gives `serve --stdio` its stdin as a file in the runtime's
// poller when it is a pipe, which is how a host starts it: the pipe a
// process inherits is blocking, so Go reads it with a blocking read on a
// thread of its own, and the gateway's stream cannot be read in turns (the
// server core then reads through a goroutine and hands every message
// over: bench/NOTES.md, "The gateway"). Only a pipe: a terminal or a file
// shared with the shell that started us must stay blocking. On Linux the
// pipe is opened again as a file of its own; elsewhere stdin's own open
// file is put in non-blocking mode.
func pollableStdin(in io.Reader) io.Reader {
	f, ok := in.(*os.File)
	if !ok || f != os.Stdin || f.SetReadDeadline(time.Time{}) == nil {
		return in // not stdin, or already in the poller (a non-blocking pipe)
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return in
	}
	// Best, a file of its own on the pipe (Linux): the mode of stdin's
	// open file stays as the host left it, for whoever shares it, and
	// whatever calls os.Stdin.Fd later cannot put ours back in blocking
	// mode.
	if g := servercore.ReopenPipe(f, syscall.O_RDONLY); g != nil {
		return g
	}
	fd := int(f.Fd())
	if syscall.SetNonblock(fd, true) != nil {
		return in
	}
	// A new *os.File of a non-blocking descriptor joins the poller;
	// os.Stdin, a global, never closes the descriptor behind its back.
	return os.NewFile(uintptr(fd), f.Name())
}
