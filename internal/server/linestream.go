package server

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

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
type lineStream struct {
	w       io.Writer
	closeFn func() error

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
// unblock a pending read of r and a pending write to w (closing pipes does).
func newLineStream(r io.Reader, w io.Writer, closeFn func() error) *lineStream {
	s := &lineStream{
		w:       w,
		closeFn: closeFn,
		wlock:   make(chan struct{}, 1),
		frames:  make(chan lineFrame),
		closed:  make(chan struct{}),
	}
	go s.readLines(r)
	return s
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

// WriteRaw writes b as it is, serialized with messages.
func (s *lineStream) WriteRaw(ctx context.Context, b []byte) error {
	select {
	case s.wlock <- struct{}{}:
	case <-s.closed:
		return fmt.Errorf("%w: stream closed", jsonrpc.ErrClosed)
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.wlock }()
	select {
	case <-s.closed:
		return fmt.Errorf("%w: stream closed", jsonrpc.ErrClosed)
	default:
	}
	if _, err := s.w.Write(b); err != nil {
		return fmt.Errorf("%w: writing: %w", jsonrpc.ErrClosed, err)
	}
	return nil
}

// Close closes both directions. It is idempotent.
func (s *lineStream) Close() error {
	var err error
	s.once.Do(func() {
		close(s.closed)
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
