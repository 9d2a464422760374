package jsonl

import (
	"errors"
	"io"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/quietsys"
)

// nonBlockingWriter returns a function that writes to w without ever
// blocking, when w is a file descriptor in non-blocking mode (an OS pipe,
// as os.Pipe and os/exec make them): it writes what fits and reports how
// much. It returns nil for any other writer.
//
// This lets a lone WriteFrame write its line on its own goroutine, which
// saves two goroutine switches per message; only a line that does not fit
// at once is left to the writer goroutine, which may block and still
// honours the caller's context.
func nonBlockingWriter(w io.Writer) func([]byte) (int, error) {
	sc, ok := w.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	if !quietsys.NonBlocking(rc) {
		return nil
	}
	d := &directWriter{rc: rc}
	d.attempt = d.writeFD // bound once: a closure per write would allocate
	return d.write
}

// directWriter holds one write in progress; the Writer runs one at a time
// (busy), so one per Writer is enough.
type directWriter struct {
	rc      syscall.RawConn
	attempt func(fd uintptr) bool
	p       []byte
	written int
	err     error
}

func (d *directWriter) write(p []byte) (int, error) {
	d.p, d.written, d.err = p, 0, nil
	err := d.rc.Write(d.attempt)
	n, werr := d.written, d.err
	d.p = nil
	if werr == nil {
		werr = err
	}
	return n, werr
}

// writeFD writes what fits; it never asks to wait for the pipe.
func (d *directWriter) writeFD(fd uintptr) bool {
	for d.written < len(d.p) {
		n, err := quietsys.Write(int(fd), d.p[d.written:])
		if n > 0 {
			d.written += n
		}
		switch {
		case err == nil:
			continue
		case errors.Is(err, syscall.EAGAIN):
		default:
			d.err = err
		}
		break
	}
	return true
}
