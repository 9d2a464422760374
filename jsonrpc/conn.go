package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of Options and CallOptions.
const (
	// DefaultTimeout is a call's deadline when neither the connection nor
	// the call sets one.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxTimeout is the hard ceiling up to which progress
	// notifications may extend a call's deadline.
	DefaultMaxTimeout = time.Hour
	// DefaultCancelTimeout bounds the background send of
	// notifications/cancelled.
	DefaultCancelTimeout = 5 * time.Second
	// NoTimeout, given as a Timeout or MaxTimeout, disables that deadline.
	NoTimeout time.Duration = -1
)

// Method names the engine itself understands. They are MCP's names for
// JSON-RPC utilities that every MCP peer shares.
const (
	MethodCancelled = "notifications/cancelled"
	MethodProgress  = "notifications/progress"
)

// Handler answers one request from the peer. It runs in its own goroutine,
// concurrently with other handlers; ctx ends when the peer cancels the
// request (notifications/cancelled), when the connection ends, or when Close
// is called. The result is encoded as the response's "result" (nil encodes
// as {}; a json.RawMessage is sent as is). A *Error in err's chain is sent
// as is; ErrMethodNotFound answers -32601; other errors answer -32603.
// After the peer cancelled the request no response is sent at all.
type Handler func(ctx context.Context, c *Conn, req *Request) (result any, err error)

// Options configure a Conn. The zero value is usable.
type Options struct {
	// Handler answers the peer's requests. Nil answers every request
	// with -32601 method not found.
	Handler Handler
	// Timeout is each call's deadline unless the call sets its own. Zero
	// means DefaultTimeout; NoTimeout disables it.
	Timeout time.Duration
	// MaxTimeout caps how long progress can keep a call alive. Zero means
	// DefaultMaxTimeout; NoTimeout disables the cap.
	MaxTimeout time.Duration
	// CancelTimeout bounds the background send of notifications/cancelled
	// after a call gives up. Zero means DefaultCancelTimeout.
	CancelTimeout time.Duration
	// ErrorHook receives problems that belong to no call: a malformed
	// frame, a response to an unknown id, a duplicate response, a handler
	// that panicked, a response that could not be written. The connection
	// goes on after each. It is called from the engine's goroutines and
	// must not block for long. Nil discards them.
	//
	// Each error names what went wrong and where: the method and id when
	// known, and the start of the offending message (a *DecodeError for an
	// unreadable frame can be found with errors.As). A late response to a
	// call whose caller already gave up is expected and not reported.
	// The hook must not call Close synchronously: Close would wait for
	// the very goroutine that runs the hook.
	ErrorHook func(error)
}

// CallOptions adjust one call. A nil *CallOptions means the defaults.
type CallOptions struct {
	// Timeout overrides the connection's Timeout for this call. Zero
	// means the connection's; NoTimeout disables it.
	Timeout time.Duration
	// OnProgress, when set, asks the peer for progress: a fresh
	// progressToken is put in params._meta, each matching
	// notifications/progress is passed here in arrival order, and each
	// moves the call's deadline forward by its Timeout, never past the
	// connection's MaxTimeout from the call's start.
	OnProgress func(Progress)
}

// Progress is one notifications/progress for a call.
type Progress struct {
	Progress float64
	// Total is nil when the peer did not say.
	Total   *float64
	Message string
	// Raw is the notification's params as received.
	Raw json.RawMessage
}

// Conn is the JSON-RPC engine over one Stream. It owns the stream: it reads
// it from one goroutine, correlates responses with pending calls by id,
// runs the peer's requests in handlers, and delivers notifications to
// subscribers in arrival order.
//
// All methods are safe for concurrent use. Call and Notify may be used from
// handlers and subscriber callbacks.
//
// Goroutines: one read loop (none over a stream that pushes, whose own goroutines
// deliver), one delivery goroutine for subscribers while
// notifications wait for them, one goroutine per request of the peer while
// its handler runs, and one short lived goroutine per
// notifications/cancelled being sent. A call itself
// runs on the caller's goroutine and costs no goroutine.
type Conn struct {
	stream        Stream
	handler       Handler
	hook          func(error)
	timeout       time.Duration // <= 0: no deadline
	maxTimeout    time.Duration // <= 0: no ceiling
	cancelTimeout time.Duration

	// lastID is the last request id handed out; ids start at 1.
	lastID atomic.Int64

	done chan struct{} // closed when the connection ends
	// stopped is closed when every goroutine of the engine returned; made
	// by end, under mu.
	stopped chan struct{}

	closeOnce  sync.Once
	closeErr   error
	streamOnce sync.Once
	streamErr  error

	// For a stream that reads in turns (see turns.go): the stream as one, the read
	// goroutine's wake-up when it is given the turn, and the timer that
	// gives it the turn after the connection was idle. Nil otherwise.
	turns     turnReader
	bgTurn    chan struct{}
	idleTimer *time.Timer

	// mu guards state and nothing else; see update.
	mu    sync.Mutex
	state inFlight
}

// inFlight is every piece of mutable state of a Conn, in one place. It is
// only touched inside Conn.update, so the locking rule is simply "hold mu".
type inFlight struct {
	// ended is non-nil once the connection is over; it wraps ErrClosed
	// and the cause.
	ended error
	// calls are our requests waiting for a response, by id.
	calls map[int64]*pendingCall
	// abandoned remembers ids whose caller gave up, so that a late
	// response is dropped quietly instead of reported as unknown.
	abandoned abandonedIDs
	// handling are the peer's requests whose handler is running; nil
	// until the first.
	handling map[ID]*incomingRequest
	// subs are the notification subscribers by method ("" = all); nil
	// until the first. The slices are copied on write, so a reader may
	// keep one after unlocking.
	subs map[string][]*subscription
	// queue holds notifications not yet handed to subscribers.
	queue []*Notification
	// delivering says a delivery goroutine runs (see enqueue).
	delivering bool
	// goroutines counts the engine's running goroutines.
	goroutines int
	// life bounds the engine's own work: reads, handler contexts,
	// responses and cancel notices. It ends with the connection. Made on
	// first use (see lifeCtx): a client's connection may never need it.
	life     context.Context
	stopLife context.CancelFunc
	// Who reads a stream in turns (see turns.go): a waiting caller,
	// the read goroutine, or, with neither set, nobody for now.
	turnCall *pendingCall
	turnBG   bool
}

// update runs f with the in-flight state locked. It is the only place
// where mu is taken; f must not block or call back into the Conn.
func (c *Conn) update(f func(s *inFlight)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(&c.state)
}

// errCloseCalled is the cause recorded when the connection ends by Close.
var errCloseCalled = errors.New("Conn.Close was called")

// closeGrace bounds how long Close waits for handlers and subscriber
// callbacks that ignore their context.
const closeGrace = 5 * time.Second

// NewConn starts the engine over s and returns at once; reading begins
// immediately. s must not be nil. The Conn owns s from now on: it closes s
// when the connection ends.
func NewConn(s Stream, opts Options) *Conn {
	if s == nil {
		panic("jsonrpc: NewConn with a nil Stream")
	}
	c := &Conn{
		stream:        s,
		handler:       opts.Handler,
		hook:          opts.ErrorHook,
		timeout:       resolveTimeout(opts.Timeout, DefaultTimeout),
		maxTimeout:    resolveTimeout(opts.MaxTimeout, DefaultMaxTimeout),
		cancelTimeout: opts.CancelTimeout,
		done:          make(chan struct{}),
	}
	if c.cancelTimeout <= 0 {
		c.cancelTimeout = DefaultCancelTimeout
	}
	c.state.calls = make(map[int64]*pendingCall)
	if p, ok := s.(pusher); ok {
		c.startPush(p)
		return c
	}
	c.state.goroutines = 1
	if tr, ok := s.(turnReader); ok {
		c.turns = tr
		c.bgTurn = make(chan struct{}, 1)
		c.idleTimer = time.AfterFunc(time.Hour, c.idleTurn)
		c.idleTimer.Stop()
		// Until the first call, the read goroutine reads.
		c.giveTurnToBGLocked(&c.state)
		go c.run(c.turnLoop)
		return c
	}
	go c.run(c.readLoop)
	return c
}

// resolveTimeout maps an option to an effective duration: zero takes the
// default, a negative value (NoTimeout) disables it and yields 0.
func resolveTimeout(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// run runs f as one of the engine's counted goroutines; the count was
// raised by whoever started it.
func (c *Conn) run(f func()) {
	defer c.update(func(s *inFlight) {
		s.goroutines--
		if s.goroutines == 0 && s.ended != nil {
			close(c.stopped)
		}
	})
	f()
}

// spawnLocked starts f as a counted goroutine unless the connection has
// ended. It is called inside update.
func (c *Conn) spawnLocked(s *inFlight, f func()) bool {
	if s.ended != nil {
		return false
	}
	s.goroutines++
	go c.run(f)
	return true
}

// report hands a problem that belongs to no call to the error hook.
func (c *Conn) report(err error) {
	if c.hook != nil {
		c.hook(err)
	}
}

// end records why the connection is over, fails every pending call at once
// and cancels the engine's own work. Only the first call has an effect.
func (c *Conn) end(cause error) {
	first := false
	var stopLife context.CancelFunc
	c.update(func(s *inFlight) {
		if s.ended != nil {
			return
		}
		first = true
		s.ended = fmt.Errorf("%w: %w", ErrClosed, cause)
		for id, p := range s.calls {
			delete(s.calls, id)
			p.finishLocked(nil, s.ended)
		}
		if c.turns != nil {
			c.idleTimer.Stop()
			if s.turnCall != nil {
				// The caller reading the stream learns of the end
				// only when its read returns.
				c.turns.Interrupt()
			}
		}
		c.stopped = make(chan struct{})
		if s.goroutines == 0 {
			close(c.stopped)
		}
		stopLife = s.stopLife
	})
	if !first {
		return
	}
	close(c.done)
	if stopLife != nil {
		stopLife()
	}
}

// lifeCtx returns the context of the engine's own work, made on first use
// and cancelled when the connection ends.
func (c *Conn) lifeCtx() context.Context {
	var life context.Context
	c.update(func(s *inFlight) {
		if s.life == nil {
			s.life, s.stopLife = context.WithCancel(context.Background())
			if s.ended != nil {
				s.stopLife()
			}
		}
		life = s.life
	})
	return life
}

// closeStream closes the stream once, whoever asks first.
func (c *Conn) closeStream() error {
	c.streamOnce.Do(func() { c.streamErr = c.stream.Close() })
	return c.streamErr
}

// Close ends the connection: pending calls fail with ErrClosed, handler
// contexts are cancelled, the stream is closed. It is idempotent and
// returns within a bounded time.
//
// Close waits for the engine's goroutines, including running handlers and
// subscriber callbacks, to return, but at most a few seconds: one that
// ignores its context is left behind and Close says so in its error. A
// handler or subscriber that wants to end the connection should therefore
// call Close from a new goroutine, since Close cannot wait for its own
// caller. Concurrent and later calls wait for the first and return its
// result.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		c.end(errCloseCalled)
		var errs []error
		if err := c.closeStream(); err != nil {
			errs = append(errs, fmt.Errorf("jsonrpc: closing the stream: %w", err))
		}
		grace := time.NewTimer(closeGrace)
		defer grace.Stop()
		select {
		case <-c.stopped:
		case <-grace.C:
			var n int
			c.update(func(s *inFlight) { n = s.goroutines })
			errs = append(errs, fmt.Errorf("jsonrpc: Close gave up after %s waiting for %d goroutine(s): handlers or subscriber callbacks that ignore their context", closeGrace, n))
		}
		c.closeErr = errors.Join(errs...)
	})
	return c.closeErr
}

// Done is closed when the connection has ended, by Close or because the
// stream ended.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err returns why the connection ended (wrapping ErrClosed), or nil while
// it is open. When the stream ended, the error also wraps the stream's
// error, so errors.Is works for both.
func (c *Conn) Err() error {
	var err error
	c.update(func(s *inFlight) { err = s.ended })
	return err
}
