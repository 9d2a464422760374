package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"syscall"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// streamOut sends everything on one jsonrpc.Stream.
type streamOut struct {
	st      jsonrpc.Stream
	crashed atomic.Bool
	// gone is the write error that said the client stopped reading (a
	// pipe with no reader left), once one did.
	gone atomic.Pointer[error]
}

func (o *streamOut) send(ctx context.Context, msg jsonrpc.Message, _ jsonrpc.ID) error {
	return o.wrote(o.st.Write(ctx, msg))
}

func (o *streamOut) raw(ctx context.Context, b []byte, _ jsonrpc.ID) error {
	rw, ok := o.st.(rawWriter)
	if !ok {
		return errors.New("mcptest: this stream cannot carry a raw line (serve it with Connect, Transport or ServeStdio)")
	}
	return o.wrote(rw.WriteRaw(ctx, b))
}

// wrote ends the session when a write says that nobody reads the stream
// any more (EPIPE: the client closed its end of our stdout). Nothing sent
// from then on can arrive, and the input may stay open: a host that
// closed only our stdout would otherwise keep the session, and a gateway
// behind it, running. (A process writing its own stdout is killed by
// SIGPIPE there; a stdout opened again, see CuttableOutput, is not.)
func (o *streamOut) wrote(err error) error {
	if err != nil && errors.Is(err, syscall.EPIPE) {
		// A copy of its own: the address of err itself would move it to
		// the heap on every write.
		gone := err
		if o.gone.CompareAndSwap(nil, &gone) {
			_ = o.st.Close()
		}
	}
	return err
}

func (o *streamOut) crash() {
	o.crashed.Store(true)
	_ = o.st.Close()
}

func (o *streamOut) close() { _ = o.st.Close() }

// Serve serves one session on stream until the stream ends, ctx ends, or
// the server is closed, and closes the stream before it returns. It
// returns nil when the client went away or the server was closed, ctx's
// error when ctx ended, ErrCrashed after the crash fault, and the stream's
// error otherwise.
//
// The malformed-line fault needs a stream that can write raw bytes; the
// streams of Connect, Transport and ServeStdio can.
func (s *Server) Serve(ctx context.Context, stream jsonrpc.Stream) error {
	out := &streamOut{st: stream}
	ss, err := s.newSession(out, false)
	if err != nil {
		_ = stream.Close()
		return err
	}
	return ss.serveStream(ctx, out)
}

func (ss *Session) serveStream(ctx context.Context, out *streamOut) error {
	readCtx, stop := context.WithCancel(ctx)
	defer stop()
	unhook := context.AfterFunc(ss.ctx, stop)
	defer unhook()
	var readErr error
	if tr, ok := out.st.(turnReader); ok {
		readErr = ss.readTurns(readCtx, tr)
	} else {
		for {
			msg, err := out.st.Read(readCtx)
			if err != nil {
				if jsonrpc.IsDecodeError(err) {
					ss.receiveBad(readCtx, err)
					continue
				}
				readErr = err
				break
			}
			ss.receive(readCtx, msg)
		}
	}
	closedByServer := ss.ctx.Err() != nil
	gone := out.gone.Load()
	if !closedByServer && ctx.Err() == nil && !out.crashed.Load() && gone == nil && isEndOfStream(readErr) {
		ss.drain()
	}
	_ = out.st.Close()
	ss.shutdown()
	switch {
	case out.crashed.Load():
		return ErrCrashed
	case gone != nil:
		return fmt.Errorf("mcptest: serving %s: the client stopped reading: %w", ss.id, *gone)
	case ctx.Err() != nil:
		return ctx.Err()
	case closedByServer && ss.endedBecause() != nil:
		return fmt.Errorf("mcptest: serving %s: %w", ss.id, ss.endedBecause())
	case closedByServer || isEndOfStream(readErr):
		return nil
	}
	return fmt.Errorf("mcptest: serving %s: %w", ss.id, readErr)
}

// ServeStdio serves one session on os.Stdin and os.Stdout (JSON lines),
// for a server that runs as a child process. The flood-stderr fault writes
// to os.Stderr (unless Options.Stderr is set) and the crash fault writes
// "mcptest: crashing on purpose" to stderr and exits the process with
// status 3. It returns when stdin ends or ctx ends, having closed stdout.
//
// A host that stops reading stdout does not keep it from returning: when
// stdin ends, the requests in flight get drainTimeout (2 s) to be
// answered, and a write still blocked then, or when ctx ends or the
// server is closed, is given up. On Linux a stdout pipe is written
// through a file of its own in the runtime's poller, which cuts such a
// write short; elsewhere (and for stdout that is no pipe) the write is
// left to a goroutine that ends with the process.
func (s *Server) ServeStdio(ctx context.Context) error {
	s.mu.Lock()
	if s.stderr == nil {
		s.stderr = os.Stderr
	}
	s.crash = func() {
		fmt.Fprintln(os.Stderr, "mcptest: crashing on purpose")
		os.Exit(3)
	}
	s.mu.Unlock()
	return s.Serve(ctx, stdioStream())
}

// stdioStream is the line stream of a server that runs as a child
// process: it reads os.Stdin and writes os.Stdout, through a file whose
// blocked write Close can cut short when there is one (CuttableOutput),
// and closes both.
func stdioStream() *lineStream {
	out, release := CuttableOutput(os.Stdout)
	return newLineStream(os.Stdin, out, func() error {
		return errors.Join(release(), os.Stdout.Close(), os.Stdin.Close())
	})
}

// pipePair returns two connected line streams over in-memory pipes.
func pipePair() (client, server *lineStream) {
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	server = newLineStream(c2sR, s2cW, func() error {
		return errors.Join(c2sR.Close(), s2cW.Close())
	})
	client = newLineStream(s2cR, c2sW, func() error {
		return errors.Join(s2cR.Close(), c2sW.Close())
	})
	return client, server
}

// servePipe starts a session on a new in-memory pipe and returns the
// client's end; done is closed when serving has ended.
func (s *Server) servePipe() (client jsonrpc.Stream, ss *Session, done <-chan struct{}, err error) {
	c, srvSide := pipePair()
	out := &streamOut{st: srvSide}
	ss, err = s.newSession(out, true)
	if err != nil {
		_ = c.Close()
		_ = srvSide.Close()
		return nil, nil, nil, err
	}
	ch := make(chan struct{})
	go func() {
		defer s.serving.Done()
		defer close(ch)
		_ = ss.serveStream(context.Background(), out)
	}()
	return c, ss, ch, nil
}

// ServeLines serves one session on JSON lines read from in and written to
// out, as ServeStdio does on the process's own streams but without its
// crash and stderr wiring: a program that embeds the server (the gateway's
// --stdio) owns its process. Both are closed when serving ends.
//
// A client that stops reading out does not keep ServeLines or Close from
// returning. A write blocked when serving ends is cut short when out
// allows it: an *io.PipeWriter by its Close, a writer with
// SetWriteDeadline (an OS pipe in the runtime's poller, a network
// connection) by a deadline already past. Any other write (a blocking
// pipe, a writer of the caller's) is left to a goroutine of its own,
// which ends when out's Write returns: the caller owns out, and closing
// what is behind it (or the client reading again) ends that goroutine.
func (s *Server) ServeLines(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	st := newLineStream(in, out, func() error { return errors.Join(out.Close(), in.Close()) })
	return s.Serve(ctx, st)
}
