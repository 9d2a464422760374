package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/readmode"
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
	// notifications/cancelled, and Close's wait for it.
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
	// after a call gives up, and so how long Close waits for such sends
	// (see Close). Zero means DefaultCancelTimeout.
	CancelTimeout time.Duration
	// ErrorHook receives problems that belong to no call: a malformed
	// frame, a response to an unknown id, a duplicate response, a handler
	// that panicked, a response that could not be written. The connection
	// goes on after each. It is called from the engine's goroutines and
	// must not block for long; a handler that panics after Close returned
	// is still reported. Nil discards them.
	//
	// Each error names what went wrong and where: the method and id when
	// known, and the start of the offending message (a *DecodeError for an
	// unreadable frame can be found with errors.As). A late response to a
	// call whose caller already gave up is expected and not reported.
	// The hook must not call Close synchronously: Close closes the
	// stream, which may wait for the very read that is reporting.
	ErrorHook func(error)

	// Queue bounds the notifications waiting for subscribers, in count
	// and in bytes (defaults: DefaultQueueLength, 1024, and
	// DefaultQueueBytes, 8 MiB). The read loop never waits for
	// subscribers, so that a response never waits behind a notification;
	// when the queue is full, what Classify calls Droppable goes first,
	// oldest first, then (only when nothing droppable is left) the
	// oldest of the rest. The progress waiting for one call's OnProgress
	// has the same bounds, oldest dropped first. Responses and the
	// peer's requests never pass through the queue and are never
	// dropped. QueueStats counts the drops.
	Queue QueueLimits
	// Classify says how the queue treats each method when full (see
	// NotificationClass). Nil means DefaultClassify. It is called on the
	// read path and must be fast and must not block.
	Classify func(method string) NotificationClass
	// OnDropped is told how many notifications were dropped since it was
	// last called. It runs on the delivery goroutine, in order, just
	// before the next notification is delivered to the subscribers, so it
	// is never called concurrently with a subscriber; progress dropped
	// from a call's backlog is told with the next delivery too. Nil:
	// drops are only counted (QueueStats).
	OnDropped func(dropped int)
	// PrepareRequest, when set, may rewrite the params of every request
	// Call sends, before a progress token goes in: the way a protocol
	// layer adds what each request of its session must carry (MCP's
	// _meta in the 2026-07-28 revision), so that a request sent straight
	// through Call carries it too. It runs on the caller's goroutine; its
	// error fails the call before anything is sent. params is nil for a
	// request without params; what it returns must be valid JSON (or
	// nil), as it is not checked again.
	PrepareRequest func(method string, params json.RawMessage) (json.RawMessage, error)
}

// CallOptions adjust one call. A nil *CallOptions means the defaults.
type CallOptions struct {
	// Timeout overrides the connection's Timeout for this call. Zero
	// means the connection's; NoTimeout disables it.
	Timeout time.Duration
	// MaxTimeout overrides the connection's MaxTimeout (the ceiling
	// progress may extend the deadline to) for this call. Zero means the
	// connection's; NoTimeout disables it.
	MaxTimeout time.Duration
	// OnProgress, when set, asks the peer for progress: a fresh
	// progressToken is put in params._meta, each matching
	// notifications/progress is passed here in arrival order, and each
	// moves the call's deadline forward by its Timeout, never past the
	// connection's MaxTimeout from the call's start. A request of the
	// peer (other than ping) moves it the same way while a Handler answers
	// it and when the answer goes out: the peer may be waiting on it to
	// finish this call.
	OnProgress func(Progress)
	// OnStart, when set, is called with the request's id before the
	// request is written, so that the caller can recognise messages the
	// peer tags with it (such as MCP's subscription ids) from the first.
	OnStart func(ID)
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
// All methods are safe for concurrent use. Call, Notify and Close may be
// used from handlers and subscriber callbacks.
//
// Goroutines: one read loop (none over a stream that pushes, whose own
// goroutines deliver, and none while the connection is idle over a stream
// that parks: stdio on Linux), one delivery goroutine for subscribers while
// notifications wait for them, one goroutine per request of the peer while
// its handler runs, and one short lived goroutine per
// notifications/cancelled being sent. A call itself runs on the caller's
// goroutine and costs no goroutine.
type Conn struct {
	stream        Stream
	handler       Handler
	hook          func(error)
	timeout       time.Duration // <= 0: no deadline
	maxTimeout    time.Duration // <= 0: no ceiling
	cancelTimeout time.Duration
	queueLimits   QueueLimits
	classify      func(method string) NotificationClass
	onDropped     func(int)
	prepare       func(method string, params json.RawMessage) (json.RawMessage, error)

	// lastID is the last request id handed out; ids start at 1.
	lastID atomic.Int64

	// life bounds the engine's own work: reads, handler contexts and
	// responses. It is made when first asked for (lifeCtx: a read loop,
	// Done, a handler), so that an idle session of a pushing stream holds
	// none, and update cancels it when the connection ends; over says the
	// same without it. Both fields are guarded by mu.
	life     context.Context
	stopLife context.CancelFunc
	over     atomic.Bool

	// rd is what reading a stream in turns needs (see turns.go), nil for
	// any other stream: behind a pointer, so that a connection over a
	// pushing stream (HTTP) does not carry it.
	rd *turnState

	// mu guards state; see update for what may be done under it.
	mu    sync.Mutex
	state inFlight
}

// turnState is a Conn's reading in turns: the stream as a turnReader, the
// read goroutine's wake-up when it is given the turn, and the timer that
// gives it the turn after the connection was idle.
type turnState struct {
	turns     turnReader
	bgTurn    chan struct{}
	idleTimer *time.Timer
	// parker is turns as a readmode.Parker, nil if it is not one, and
	// wake is bgReady as the func given to each Park, made once.
	parker readmode.Parker
	wake   func()
}

// inFlight is every piece of mutable state of a Conn, in one place. It is
// only touched inside Conn.update, so the locking rule is simply "hold mu".
type inFlight struct {
	// ended is non-nil once the connection is over; it wraps ErrClosed
	// and the cause. Everything that follows from it (pending calls
	// failed, life cancelled, the turn interrupted) is done by update.
	ended error
	// streamClosed is made when the connection ends and closed once the
	// stream's Close returned; closeErr is then what Close returns. The
	// goroutine that ended the connection closes the stream (see end).
	streamClosed chan struct{}
	closeErr     error
	// cancelling counts notifications/cancelled being written; flushed,
	// set while Close waits for them, is closed when none is left.
	// cancelsLost counts those that failed after the connection ended.
	cancelling  int
	cancelsLost int
	flushed     chan struct{}
	// calls are our requests waiting for a response, by id.
	calls pendingCalls
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
	// queue holds notifications not yet handed to subscribers, bounded
	// by Conn.queueLimits; nil until the first (see notes), as a session
	// with no subscriber queues nothing.
	queue *noteQueue
	// drained, set while Close waits for the delivery goroutine, is
	// closed when it returned.
	drained chan struct{}
	// Who reads a stream in turns (see turns.go): a waiting caller
	// (turnCall), the read goroutine (turnBG), or, with neither set,
	// nobody for now.
	turnCall *pendingCall
	// The bools, together so that they share one word of padding:
	// delivering says a delivery goroutine runs (see enqueue); bgRunning,
	// that the read goroutine exists; bgParked, that it holds the turn
	// with the stream parked and no goroutine (see parkBG).
	delivering bool
	turnBG     bool
	bgRunning  bool
	bgParked   bool
	// sweeper expires calls whose deadline passed, at sweepAt (zero:
	// not armed); see deadlines.go. Nil until the first call with one.
	sweeper *time.Timer
	sweepAt time.Time
}

// update runs f with the in-flight state locked, then applies what
// follows from the state f left: when f ended the connection, pending
// calls fail, the engine's work is cancelled and a running turn is
// interrupted; when Close waits for the cancel flush and no cancel is
// left, it is woken. It is the only place where mu is taken.
//
// f must not block, and must not call anything that takes mu. Under mu
// the engine calls out only to what never blocks: a call's signal
// (buffered), timers, the go statement, context cancellation (whose
// AfterFuncs run on goroutines of their own), and the stream's Interrupt,
// which readmode.TurnReader requires not to block. Interrupt is called
// under mu so that it reaches the turn it was meant for, not a later one.
func (c *Conn) update(f func(s *inFlight)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &c.state
	open := s.ended == nil
	f(s)
	if open && s.ended != nil {
		c.endedLocked(s)
	}
	if s.flushed != nil && s.cancelling == 0 {
		close(s.flushed)
		s.flushed = nil
	}
	if s.drained != nil && !s.delivering {
		close(s.drained)
		s.drained = nil
	}
}

// endedLocked applies the end of the connection; see update.
func (c *Conn) endedLocked(s *inFlight) {
	for _, p := range s.calls.takeAll() {
		p.finishLocked(nil, s.ended)
	}
	if s.sweeper != nil {
		s.sweeper.Stop()
	}
	if c.rd != nil {
		c.rd.idleTimer.Stop()
		if s.turnCall != nil {
			// The caller reading the stream learns of the end only
			// when its read returns.
			c.rd.turns.Interrupt()
		}
	}
	c.over.Store(true)
	if c.stopLife != nil {
		c.stopLife()
	}
}

// lifeCtx returns the connection's lifetime context (see Conn.life),
// making it on first use; made after the end, it is cancelled already.
func (c *Conn) lifeCtx() context.Context {
	var life context.Context
	c.update(func(s *inFlight) {
		if c.life == nil {
			c.life, c.stopLife = context.WithCancel(context.Background())
			if s.ended != nil {
				c.stopLife()
			}
		}
		life = c.life
	})
	return life
}

// errCloseCalled is the cause recorded when the connection ends by Close.
var errCloseCalled = errors.New("Conn.Close was called")

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
		prepare:       opts.PrepareRequest,
		queueLimits:   opts.Queue.resolved(),
		classify:      opts.Classify,
		onDropped:     opts.OnDropped,
	}
	if c.classify == nil {
		c.classify = DefaultClassify
	}
	if c.cancelTimeout <= 0 {
		c.cancelTimeout = DefaultCancelTimeout
	}
	if p, ok := s.(pusher); ok {
		c.startPush(p)
		return c
	}
	if tr, ok := s.(turnReader); ok {
		c.rd = &turnState{turns: tr, bgTurn: make(chan struct{}, 1), wake: c.bgReady}
		c.rd.parker, _ = s.(readmode.Parker)
		// The turn starts free, as after a response: a first call made
		// at once reads its own response, and the read goroutine takes
		// the turn only when none came within idleTurnDelay.
		// Armed under c.mu, which idleTurn and every other user of the
		// timer take: on a loaded machine the timer can fire before
		// AfterFunc's result is stored, and a stream that ended at once
		// (a child that exited) then ended the connection with no timer
		// to stop (a nil dereference CI met once).
		c.mu.Lock()
		c.rd.idleTimer = time.AfterFunc(idleTurnDelay, c.idleTurn)
		c.mu.Unlock()
		return c
	}
	go c.readLoop()
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

// spawnLocked starts f on a goroutine of its own unless the connection
// has ended. It is called inside update.
func (c *Conn) spawnLocked(s *inFlight, f func()) bool {
	if s.ended != nil {
		return false
	}
	go f()
	return true
}

// report hands a problem that belongs to no call to the error hook.
func (c *Conn) report(err error) {
	if c.hook != nil {
		c.hook(err)
	}
}

// end ends the connection with cause, unless it had already ended, and
// returns a channel that is closed once the stream is closed, and whether
// this call ended it. The goroutine that ends the connection closes the
// stream; when Close ended it, only after the cancel flush and, with
// drain, the delivery of the notifications queued (see Close). update
// does the rest.
func (c *Conn) end(cause error, drain bool) (streamClosed <-chan struct{}, first bool) {
	var closed, flushed, drained chan struct{}
	var notes []*Notification
	c.update(func(s *inFlight) {
		if s.ended == nil {
			first = true
			s.ended = fmt.Errorf("%w: %w", ErrClosed, cause)
			s.streamClosed = make(chan struct{})
			if cause == errCloseCalled {
				notes = cancelPendingLocked(s)
				if s.cancelling > 0 {
					s.flushed = make(chan struct{})
					flushed = s.flushed
				}
				if drain {
					drained = s.drainedLocked()
				}
			}
		}
		closed = s.streamClosed
	})
	if len(notes) > 0 {
		go c.writeCancels(notes)
	}
	if first {
		var closeErr error
		late := c.awaitClose(flushed, drained)
		if err := c.stream.Close(); err != nil {
			closeErr = fmt.Errorf("jsonrpc: closing the stream: %w", err)
		}
		c.update(func(s *inFlight) { s.closeErr = errors.Join(late, closeErr) })
		close(closed)
	}
	return closed, first
}

// Close ends the connection. Pending calls fail with ErrClosed at once,
// and handler contexts are cancelled. Then, for at most the CancelTimeout
// in all, Close waits for two things: the notifications/cancelled still
// being written for calls given up on, and one for each call that was
// pending (initialize excepted), so that the peer learns of them before
// the stream closes; and the subscriber callbacks for the notifications
// that arrived before Close. Then it closes the stream. It is idempotent;
// concurrent and later calls wait for the first and return its result.
// After the stream ended by itself, Close waits (as long, at most) for
// the subscriber callbacks of what arrived before the end.
//
// Close may be called from anywhere, handlers and subscriber callbacks
// included, and never waits for its own caller: from a subscriber
// callback it does not wait for the delivery goroutine that runs it
// (notifications queued behind that callback are delivered after Close
// returned), and a later Close from a callback returns at once. It never
// waits for handlers; their contexts are done, and no response of theirs
// is sent. Only the ErrorHook must not call it synchronously (see
// Options).
func (c *Conn) Close() error {
	self := onDeliveryGoroutine()
	closed, first := c.end(errCloseCalled, !self)
	if self && !first {
		// The first Close may be waiting for this very callback.
		return nil
	}
	<-closed
	if !first && !self {
		// The stream ended by itself first: the notifications that
		// arrived before it are still delivered, and waited for.
		c.awaitDrain()
	}
	var err error
	c.update(func(s *inFlight) { err = s.closeErr })
	return err
}

// drainedLocked returns a channel that is closed once the delivery
// goroutine returned, nil when none runs. It is called inside update.
func (s *inFlight) drainedLocked() chan struct{} {
	if !s.delivering {
		return nil
	}
	if s.drained == nil {
		s.drained = make(chan struct{})
	}
	return s.drained
}

// awaitDrain waits until the delivery goroutine returned, for at most the
// CancelTimeout.
func (c *Conn) awaitDrain() {
	var drained chan struct{}
	c.update(func(s *inFlight) { drained = s.drainedLocked() })
	if drained == nil {
		return
	}
	timer := time.NewTimer(c.cancelTimeout)
	defer timer.Stop()
	select {
	case <-drained:
	case <-timer.C:
	}
}

// awaitClose waits until the notifications/cancelled being sent are out
// (flushed) and the delivery goroutine returned (drained; nil when Close
// does not wait for it), or the CancelTimeout passed; then it says what
// was left undone.
func (c *Conn) awaitClose(flushed, drained chan struct{}) error {
	if flushed == nil && drained == nil {
		return nil
	}
	waitDrain := drained != nil
	timer := time.NewTimer(c.cancelTimeout)
	defer timer.Stop()
wait:
	for flushed != nil || drained != nil {
		select {
		case <-flushed:
			flushed = nil
		case <-drained:
			drained = nil
		case <-timer.C:
			break wait
		}
	}
	var unsent int
	var delivering bool
	c.update(func(s *inFlight) {
		unsent = s.cancelling + s.cancelsLost
		delivering = waitDrain && s.delivering
	})
	var errs []error
	if unsent > 0 {
		errs = append(errs, fmt.Errorf("jsonrpc: closed before %d %s went out (Close waits up to the CancelTimeout, %s)", unsent, MethodCancelled, c.cancelTimeout))
	}
	if delivering {
		errs = append(errs, fmt.Errorf("jsonrpc: closed while subscriber callbacks still ran for notifications that arrived before Close (Close waits up to the CancelTimeout, %s)", c.cancelTimeout))
	}
	return errors.Join(errs...)
}

// Done is closed when the connection has ended, by Close or because the
// stream ended.
func (c *Conn) Done() <-chan struct{} { return c.lifeCtx().Done() }

// Err returns why the connection ended (wrapping ErrClosed), or nil while
// it is open. When the stream ended, the error also wraps the stream's
// error, so errors.Is works for both.
func (c *Conn) Err() error {
	var err error
	c.update(func(s *inFlight) { err = s.ended })
	return err
}
