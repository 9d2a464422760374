package transport

import (
	"io"
	"os"
	"time"
)

// pipeStream is NewStream's stream when it reads an OS pipe (a process's
// stdin from its host, as `mcpwire serve --stdio` reads it): the pipe's
// kernel buffer holds what comes, and a read deadline can cut a read
// short, so the stream can be read in turns (readmode.TurnReader) on the
// reader's own goroutine, as the stdio transport's child output is,
// instead of through a read goroutine and a hand-off per message.
type pipeStream struct{ *lineStream }

// ReadTurn reads the pipe on the calling goroutine (see
// readmode.TurnReader).
func (s *pipeStream) ReadTurn(deadline time.Time, to receiver) error {
	return s.lineStream.readTurn(deadline, to)
}

// Interrupt cuts the running turn short (see readmode.TurnReader).
func (s *pipeStream) Interrupt() { s.lineStream.interruptTurn() }

// newPipeStream returns a stream read in turns when r is an OS file with
// read deadlines (a pipe in the runtime's poller), else nil.
func newPipeStream(r io.Reader, w io.Writer, closeFn func() error) *pipeStream {
	f, ok := r.(*os.File)
	if !ok || f.SetReadDeadline(time.Time{}) != nil {
		return nil // a regular file, a terminal, a reader of the caller's
	}
	var in io.Reader = f
	if q := newQuietFile(f); q != nil {
		in = q
	}
	return &pipeStream{newLineStream(in, w, lineStreamConfig{close: closeFn, lazyRead: true, deadlines: f})}
}
