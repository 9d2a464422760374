package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// rawWriter is a stream that can also write bytes that are not a message,
// which is how the malformed-line fault reaches the wire.
type rawWriter interface {
	WriteRaw(ctx context.Context, b []byte) error
}

// lineStream is mcptest's own JSON-lines jsonrpc.Stream: one message per
// '\n'-terminated line, no size limit. It is deliberately separate from
// package transport's stream so that the server side of a test never shares
// framing code with the client under test, and because faults need raw
// writes that a finished transport would (rightly) not offer.
//
// Concurrency: Read from one goroutine at a time; Write and WriteRaw from
// many (they are serialized whole); Close at any time, idempotent.
//
// A client that stops reading blocks the write in progress. Close must end
// the session all the same, so a write either can be cut short (an
// in-memory pipe, which closing ends; a writer with write deadlines, such
// as an OS pipe in the runtime's poller or a network connection, which
// Close gives a deadline already past) and runs on the writing goroutine,
// or it cannot (a pipe a child process inherited in blocking mode, a
// writer of the caller's) and runs on a goroutine of its own that Write
// stops waiting for at Close (or when ctx ends): that goroutine ends when
// the underlying Write returns, which is up to whatever is behind it.
type lineStream struct {
	w       io.Writer
	closeFn func() error
	// cut cuts short a write in progress, nil when nothing but closeFn
	// can; handOff says writes cannot be cut short at all.
	cut     func()
	handOff bool

	wlock  chan struct{} // one-slot semaphore over w, so waiting honours ctx
	frames chan lineFrame
	closed chan struct{}
	once   sync.Once

	// Read-side state, owned by the single reader goroutine of Read.
	queue   []queued
	termErr error
}

type lineFrame struct {
	line []byte
	err  error // terminal: the source ended or failed
}

type queued struct {
	msg jsonrpc.Message
	err error
}

// newLineStream reads frames from r and writes them to w; closeFn must
// unblock a pending read of r (closing a pipe does) and release w. A
// pending write to w need not be something closeFn can end (see
// lineStream).
func newLineStream(r io.Reader, w io.Writer, closeFn func() error) *lineStream {
	s := &lineStream{
		w:       w,
		closeFn: closeFn,
		wlock:   make(chan struct{}, 1),
		frames:  make(chan lineFrame),
		closed:  make(chan struct{}),
	}
	s.cut, s.handOff = writeCutter(w)
	go s.readLines(r)
	return s
}

// writeDeadliner is a writer whose blocked Write a deadline cuts short.
type writeDeadliner interface {
	SetWriteDeadline(t time.Time) error
}

// writeCutter says how a write in progress to w is cut short: by cut,
// by closing w (an io.Pipe, cut nil), or not at all (handOff).
func writeCutter(w io.Writer) (cut func(), handOff bool) {
	switch w := w.(type) {
	case *io.PipeWriter:
		return nil, false
	case writeDeadliner:
		// An *os.File answers with an error when it is not in the
		// poller (a terminal, a regular file, a blocking pipe).
		if w.SetWriteDeadline(time.Time{}) == nil {
			return func() { _ = w.SetWriteDeadline(time.Unix(1, 0)) }, false
		}
	}
	return nil, true
}

func (s *lineStream) readLines(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := readLine(br)
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case s.frames <- lineFrame{line: line}:
			case <-s.closed:
				return
			}
		}
		if err != nil {
			select {
			case s.frames <- lineFrame{err: err}:
			case <-s.closed:
			}
			return
		}
	}
}

// readLine returns one line without its line end, however long it is. A
// last line without '\n' is returned together with io.EOF.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, err
	}
}

// Read returns the next message. A *jsonrpc.DecodeError is one bad line;
// any other error is terminal and wraps jsonrpc.ErrClosed (and io.EOF when
// the peer simply stopped sending).
func (s *lineStream) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		if len(s.queue) > 0 {
			q := s.queue[0]
			s.queue = s.queue[1:]
			return q.msg, q.err
		}
		if s.termErr != nil {
			return nil, s.termErr
		}
		select {
		case f := <-s.frames:
			if f.err != nil {
				s.termErr = fmt.Errorf("%w: input ended: %w", jsonrpc.ErrClosed, f.err)
				continue
			}
			msgs, err := jsonrpc.DecodeFrame(f.line)
			for _, m := range msgs {
				s.queue = append(s.queue, queued{msg: m})
			}
			if err != nil {
				s.queue = append(s.queue, queued{err: err})
			}
		case <-s.closed:
			s.termErr = fmt.Errorf("%w: stream closed", jsonrpc.ErrClosed)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Write sends msg as one line.
func (s *lineStream) Write(ctx context.Context, msg jsonrpc.Message) error {
	b, err := jsonrpc.AppendMessage(nil, msg)
	if err != nil {
		return err
	}
	return s.WriteRaw(ctx, append(b, '\n'))
}

// WriteRaw writes b as it is, serialized with messages. b must not change
// afterwards: a write handed off (see lineStream) may still use it after
// WriteRaw returned.
func (s *lineStream) WriteRaw(ctx context.Context, b []byte) error {
	select {
	case s.wlock <- struct{}{}:
	case <-s.closed:
		return errLineStreamClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-s.closed:
		<-s.wlock
		return errLineStreamClosed
	default:
	}
	if s.handOff {
		return s.writeHandedOff(ctx, b)
	}
	_, err := s.w.Write(b)
	<-s.wlock
	if err != nil {
		return fmt.Errorf("%w: writing: %w", jsonrpc.ErrClosed, err)
	}
	return nil
}

var errLineStreamClosed = fmt.Errorf("%w: stream closed", jsonrpc.ErrClosed)

// writeHandedOff writes b on a goroutine of its own, holding the write
// lock until the write is over, so that a line whose writer stopped
// waiting is still written whole before the next: Close, or the end of
// ctx, stops the wait, not the write.
func (s *lineStream) writeHandedOff(ctx context.Context, b []byte) error {
	done := make(chan error, 1)
	go func() {
		_, err := s.w.Write(b)
		<-s.wlock
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%w: writing: %w", jsonrpc.ErrClosed, err)
		}
		return nil
	case <-s.closed:
		return errLineStreamClosed
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close closes both directions, cutting short a write in progress where
// the writer allows it (see lineStream). It is idempotent.
func (s *lineStream) Close() error {
	var err error
	s.once.Do(func() {
		close(s.closed)
		if s.cut != nil {
			s.cut()
		}
		if s.closeFn != nil {
			err = s.closeFn()
		}
	})
	return err
}

// isEndOfStream reports whether err means the peer simply went away, which
// ends a session normally rather than as a failure.
func isEndOfStream(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, jsonrpc.ErrClosed) || errors.Is(err, io.ErrClosedPipe)
}
