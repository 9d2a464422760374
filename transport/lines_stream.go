package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/jsonl"
	"github.com/mcpwire/mcpwire/internal/readmode"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// errStreamClosed is what Read and Write return after Close.
var errStreamClosed = fmt.Errorf("transport: stream closed: %w", jsonrpc.ErrClosed)

// keepEncodeBuffer bounds the encode buffers kept for reuse.
const keepEncodeBuffer = 1 << 20

// NewStream returns a jsonrpc.Stream that speaks JSON lines: it reads one
// message (or one batch) per line from r and writes one message per line to
// w. A line that is not a valid message is reported by Read as a
// *jsonrpc.DecodeError and skipped; the end of r is a terminal error
// wrapping io.EOF.
//
// The stream owns r and w from now on. It reads r from a goroutine of its
// own, reading ahead by at most one line, and writes w from another. When
// r is an OS pipe (an *os.File with read deadlines), nothing reads ahead:
// the module's own engine and server read it on their goroutines, in
// turns, and Read starts the read goroutine only when called. Close
// closes closer (when not nil), which must make a blocked Read of r and a
// blocked Write of w return, typically by closing the pipe or file behind
// them; those goroutines end when that happens.
func NewStream(r io.Reader, w io.Writer, closer io.Closer) jsonrpc.Stream {
	var closeFn func() error
	if closer != nil {
		closeFn = closer.Close
	}
	if s := newPipeStream(r, w, closeFn); s != nil {
		return s
	}
	return newLineStream(r, w, lineStreamConfig{close: closeFn})
}

// lineStreamConfig adapts a lineStream to its transport.
type lineStreamConfig struct {
	// maxFrameSize limits incoming lines; 0 means no limit.
	maxFrameSize int
	// ended turns the reader's terminal error (io.EOF or a read error)
	// into the error Read reports. It runs on whichever goroutine is
	// reading (the read goroutine, or a caller in its turn) and may block
	// for a bounded time (to collect a process's exit status).
	ended func(err error) error
	// close releases what is behind the stream. It runs once, after the
	// stream stopped accepting writes, and must make blocked reads and
	// writes of the underlying reader and writer return.
	close func() error
	// lazyRead defers reading until the first Read or ReadTurn, so that
	// the engine can read in turns on goroutines of its choosing.
	// Only for readers with a buffer of their own (an OS pipe): before
	// then, nothing reads ahead, and a writer into an unbuffered reader
	// (io.Pipe) would block.
	lazyRead bool
	// deadlines sets the reader's read deadline, which reading in turns
	// needs (see readTurn); nil when the reader has none.
	deadlines readDeadliner
	// parker waits for the reader's input with no goroutine (see park);
	// nil when the reader cannot.
	parker sourceParker
	// secrets are taken out of what a bad frame's decode error quotes of
	// it (a stdio server's Env values, which a server may print on
	// stdout); nil for none.
	secrets []string
}

// sourceParker is a reader's source that can wait for input with no
// goroutine: Park arranges for ready to be called, on a goroutine of its
// own, when input comes or the source ends, and reports false if it
// cannot; Unpark cancels that, reporting false if ready has been or is
// being called.
type sourceParker interface {
	Park(ready func()) bool
	Unpark() bool
}

// lineStream is the JSON-lines jsonrpc.Stream shared by NewStream, Pipe and
// the stdio transport.
type lineStream struct {
	cfg    lineStreamConfig
	reader *jsonl.Reader
	writer *jsonl.Writer

	incoming chan readResult // from the read goroutine, unbuffered
	done     chan struct{}   // closed when Close begins

	closeOnce sync.Once
	closeErr  error

	mu        sync.Mutex
	closedErr error // what Read reports after Close
	terminal  error // the terminal error Read returned, sticky

	encodeBufs sync.Pool // of *[]byte

	// readMode says who reads r: nobody yet, the stream's own goroutine
	// (for Read), or whoever has the turn (ReadTurn). Guarded by mu.
	readMode readMode

	// For reading in turns: turnMu is held by the turn that reads (or by
	// the drain after Close); leftover is the rest of a batch whose turn
	// ended in its middle. Guarded by turnMu.
	turnMu   sync.Mutex
	leftover []readResult
	// interrupted marks an Interrupt (see interruptTurn).
	interrupted atomic.Bool
}

// readDeadliner is a reader whose blocked Read a deadline can cut short,
// such as an *os.File for an OS pipe.
type readDeadliner interface {
	SetReadDeadline(t time.Time) error
}

type readMode int

const (
	notReading readMode = iota
	readByGoroutine
	readByTurns
)

type readResult struct {
	msg jsonrpc.Message
	err error
}

func newLineStream(r io.Reader, w io.Writer, cfg lineStreamConfig) *lineStream {
	s := &lineStream{
		cfg:       cfg,
		reader:    jsonl.NewReader(r),
		writer:    jsonl.NewWriter(w),
		incoming:  make(chan readResult),
		done:      make(chan struct{}),
		closedErr: errStreamClosed,
	}
	s.reader.MaxFrameSize = cfg.maxFrameSize
	if !cfg.lazyRead {
		s.readMode = readByGoroutine
		go s.readLoop()
	}
	return s
}

// claimReader settles who reads: want, unless someone already does. It
// returns the mode in force and, for the goroutine mode, starts it.
func (s *lineStream) claimReader(want readMode) readMode {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.readMode == notReading {
		s.readMode = want
		if want == readByGoroutine {
			go s.readLoop()
		}
	}
	return s.readMode
}

// readLoop turns lines into messages for Read. After Close it keeps
// reading and discarding until the reader fails, so that a peer still
// writing (a child process flushing its last output) is not blocked on a
// full pipe while it shuts down.
func (s *lineStream) readLoop() {
	if err := s.pump(s.deliver, nil); err != nil {
		s.deliver(readResult{err: err})
		return
	}
	s.drain()
}

// pump reads lines and passes each message, or each bad frame as a
// *jsonrpc.DecodeError, to emit until emit returns false (nil is returned
// then; the rest of a batch is kept in leftover) or the reader fails: it
// returns the terminal error, nil when the stream was closed, or
// errTurnOver when a read deadline passed. givenUp, when not nil (the
// engine's turns), decodes the frames the reader gives up.
func (s *lineStream) pump(emit func(readResult) bool, givenUp readmode.FrameDecoder[jsonrpc.Message]) error {
	for {
		frame, err := s.reader.ReadFrame()
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return errTurnOver
			}
			var tooLarge *jsonl.FrameTooLargeError
			if errors.As(err, &tooLarge) {
				if !emit(readResult{err: &jsonrpc.DecodeError{
					Reason: fmt.Sprintf("message of %d bytes exceeds the maximum message size of %d bytes; skipped", tooLarge.Size, tooLarge.Limit),
					Err:    tooLarge,
				}}) {
					return nil
				}
				continue
			}
			if s.isClosed() {
				return nil
			}
			if s.cfg.ended != nil {
				return s.cfg.ended(err)
			}
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("transport: the peer ended the stream: %w", io.EOF)
			}
			return fmt.Errorf("transport: read: %w", err)
		}
		var one [1]jsonrpc.Message
		var msgs []jsonrpc.Message
		var decodeErr error
		switch {
		case !s.reader.GiveUpFrame():
			msgs, decodeErr = jsonrpc.AppendFrame(one[:0], frame)
		case givenUp != nil:
			// Not one[:0]: through the interface it would move to
			// the heap for every frame, not only these large ones.
			msgs, decodeErr = givenUp.DecodeGivenUp(nil, frame, s.scrubber())
		default:
			// A large frame is ours: its messages keep their parts of
			// it rather than copies.
			msgs, decodeErr = jsonrpc.AppendFrameRetaining(one[:0], frame)
		}
		if len(msgs) == 1 && decodeErr == nil {
			if !emit(readResult{msg: msgs[0]}) {
				return nil
			}
			continue
		}
		// A batch: each member in order, then each bad member as its
		// own error.
		results := make([]readResult, 0, len(msgs)+1)
		for _, m := range msgs {
			results = append(results, readResult{msg: m})
		}
		if joined, ok := decodeErr.(interface{ Unwrap() []error }); ok {
			for _, e := range joined.Unwrap() {
				scrubDecodeError(e, s.cfg.secrets)
				results = append(results, readResult{err: e})
			}
		} else if decodeErr != nil {
			scrubDecodeError(decodeErr, s.cfg.secrets)
			results = append(results, readResult{err: decodeErr})
		}
		for i, r := range results {
			if !emit(r) {
				s.leftover = results[i+1:]
				return nil
			}
		}
	}
}

// scrubber is what pump does to a decode error, for one that the engine
// finds later in a frame given up to it (readmode.FrameDecoder); nil when
// the stream has no secrets.
func (s *lineStream) scrubber() func(error) {
	secrets := s.cfg.secrets
	if len(secrets) == 0 {
		return nil
	}
	return func(err error) { scrubDecodeError(err, secrets) }
}

// errTurnOver says a turn's read deadline passed (or Interrupt was
// called); it ends the turn, not the stream.
var errTurnOver = errors.New("transport: the turn to read is over")

// readTurn reads in turns for readmode.TurnReader, on a stream whose
// config has deadlines. See readmode.TurnReader for the contract.
func (s *lineStream) readTurn(deadline time.Time, to receiver) error {
	if err := s.turnEnded(); err != nil {
		return err
	}
	s.turnMu.Lock()
	defer s.turnMu.Unlock()
	if s.claimReader(readByTurns) != readByTurns {
		return errors.New("transport: ReadTurn called on a stream that is read otherwise")
	}
	if err := s.turnEnded(); err != nil {
		return err
	}
	emit := func(r readResult) bool {
		return !s.isClosed() && to.Receive(r.msg, r.err)
	}
	for len(s.leftover) > 0 {
		r := s.leftover[0]
		s.leftover = s.leftover[1:]
		if !emit(r) {
			return s.turnEnded()
		}
	}
	// Every turn sets the deadline, which would also undo an Interrupt
	// that came before it: the mark catches that one.
	if err := s.cfg.deadlines.SetReadDeadline(deadline); err != nil && !deadline.IsZero() {
		// No deadlines on this reader: a turn could not be cut short,
		// so it is not taken.
		return nil
	}
	if s.interrupted.Swap(false) {
		return s.turnEnded()
	}
	givenUp, _ := to.(readmode.FrameDecoder[jsonrpc.Message])
	awaiter, _ := to.(readmode.Awaiter)
	s.reader.ExpectInput(awaiter != nil && awaiter.AwaitsReply())
	switch err := s.pump(emit, givenUp); err {
	case nil, errTurnOver:
		return s.turnEnded()
	default:
		s.setTerminal(err)
		return err
	}
}

// turnEnded is the terminal error a turn reports once the stream ended
// or was closed, nil while it is open.
func (s *lineStream) turnEnded() error {
	if err := s.terminalErr(); err != nil {
		return err
	}
	if s.isClosed() {
		return s.closedError()
	}
	return nil
}

// interruptTurn cuts the running turn short.
// The mark first: a turn that has yet to set its deadline sees it then.
// A mark left over from a turn already over ends the next one early,
// which TurnReader allows.
func (s *lineStream) interruptTurn() {
	s.interrupted.Store(true)
	_ = s.cfg.deadlines.SetReadDeadline(time.Unix(1, 0))
}

// park is readmode.Parker's Park for a stream read in turns: the engine
// calls it between turns, holding the turn. Input already read ahead, or
// a batch's rest, must be read first (retry); a closed or ended stream, or
// a source that cannot park, is read in turns as before.
func (s *lineStream) park(ready func()) (parked, retry bool) {
	if s.cfg.parker == nil || !s.turnMu.TryLock() {
		return false, false // a turn is not expected now; drainTurns after Close is
	}
	defer s.turnMu.Unlock()
	if len(s.leftover) > 0 || s.reader.Pending() {
		return false, true
	}
	// Under mu, so that shutdown, which unparks, comes either before (and
	// park sees the stream closed) or after.
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.isClosed() || s.terminal != nil {
		return false, false
	}
	// A caller's turn kept the read buffer (ExpectInput); parked, the
	// connection holds none.
	s.reader.Idle()
	return s.cfg.parker.Park(ready), false
}

// unpark is readmode.Parker's Unpark.
func (s *lineStream) unpark() bool {
	return s.cfg.parker != nil && s.cfg.parker.Unpark()
}

// drainTurns drains after Close once the running turn, if any, is over.
func (s *lineStream) drainTurns() {
	s.turnMu.Lock()
	defer s.turnMu.Unlock()
	if s.cfg.deadlines != nil {
		_ = s.cfg.deadlines.SetReadDeadline(time.Time{})
	}
	s.drain()
}

// drain reads and discards until the reader fails.
func (s *lineStream) drain() {
	for {
		if _, err := s.reader.ReadFrame(); err != nil && !isFrameTooLarge(err) {
			return
		}
	}
}

func isFrameTooLarge(err error) bool {
	var tooLarge *jsonl.FrameTooLargeError
	return errors.As(err, &tooLarge)
}

// deliver hands r to Read, or drops it once the stream is closed.
func (s *lineStream) deliver(r readResult) bool {
	select {
	case s.incoming <- r:
		return true
	case <-s.done:
		return false
	}
}

func (s *lineStream) isClosed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Read returns the next message. See jsonrpc.Stream for the contract.
func (s *lineStream) Read(ctx context.Context) (jsonrpc.Message, error) {
	if s.claimReader(readByGoroutine) != readByGoroutine {
		return nil, errors.New("transport: Read called on a stream that is read in turns")
	}
	if err := s.terminalErr(); err != nil {
		return nil, err
	}
	if s.isClosed() {
		return nil, s.closedError()
	}
	select {
	case r := <-s.incoming:
		if r.err != nil && !jsonrpc.IsDecodeError(r.err) {
			s.setTerminal(r.err)
		}
		return r.msg, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.done:
		return nil, s.closedError()
	}
}

// Write sends msg as one line. See jsonrpc.Stream for the contract. If ctx
// ends while the line is being written, Write returns ctx's error at once
// and the line is still written whole in the background (later lines wait
// for it), so the peer may receive a message whose Write failed; the
// stream stays usable. The engine relies on this: a call cancelled just as
// its request went out must not cost the connection.
func (s *lineStream) Write(ctx context.Context, msg jsonrpc.Message) error {
	if s.isClosed() {
		return errStreamClosed
	}
	buf := s.getEncodeBuffer()
	defer s.putEncodeBuffer(buf)
	b, err := jsonrpc.AppendMessage((*buf)[:0], msg)
	*buf = b
	if err != nil {
		return fmt.Errorf("transport: %w", err)
	}
	err = s.writer.WriteFrame(ctx, b)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, jsonl.ErrWriterClosed):
		return errStreamClosed
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return err
	case s.isClosed():
		// Close released what is behind the stream (a child's stdin)
		// while this line was being written, so the write failed with
		// "use of closed file" or the like: to the caller that is the
		// close it raced with.
		return errStreamClosed
	default:
		return fmt.Errorf("transport: %w", err)
	}
}

// Close stops the stream: Read and Write return at once with an error
// wrapping jsonrpc.ErrClosed, and the underlying resources are released.
// It is idempotent and safe to call concurrently with Read and Write;
// concurrent callers all wait for the first to finish.
func (s *lineStream) Close() error {
	s.shutdown(errStreamClosed)
	return s.closeErr
}

// shutdown closes the stream, making Read report cause from now on.
func (s *lineStream) shutdown(cause error) {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closedErr = cause
		if s.cfg.parker != nil {
			// A pending Park is dropped, not called: the engine is
			// ending anyway, and the descriptor must not stay watched
			// past its close.
			s.cfg.parker.Unpark()
		}
		switch s.readMode {
		case notReading:
			// Nobody reads: drain, so that the peer is not blocked
			// writing while it shuts down.
			s.readMode = readByGoroutine
			go s.drain()
		case readByTurns:
			go s.drainTurns()
		}
		s.mu.Unlock()
		close(s.done)
		s.writer.Close()
		if s.cfg.close != nil {
			s.closeErr = s.cfg.close()
		}
	})
}

func (s *lineStream) closedError() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closedErr
}

func (s *lineStream) terminalErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.terminal
}

func (s *lineStream) setTerminal(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.terminal == nil {
		s.terminal = err
	}
}

func (s *lineStream) getEncodeBuffer() *[]byte {
	if b, ok := s.encodeBufs.Get().(*[]byte); ok {
		return b
	}
	b := make([]byte, 0, 512)
	return &b
}

func (s *lineStream) putEncodeBuffer(b *[]byte) {
	if cap(*b) <= keepEncodeBuffer {
		s.encodeBufs.Put(b)
	}
}
