package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/latecheck"
)

// pendingCall is one of our requests waiting for its response. The caller
// waits on signal in its own goroutine; the read loop fills in the outcome
// under Conn.mu and signals.
type pendingCall struct {
	id     int64
	method string
	// timeout is the call's deadline relative to its start; 0 for none.
	timeout time.Duration
	// signal (capacity 1) says the outcome or new progress is there.
	signal chan struct{}
	// req is the request as written; it lives here to save an allocation
	// per call.
	req Request
	// conn, turnStop and turnWoke serve the call's turns to read (see
	// turns.go), on the caller's goroutine: turnStop is why reading must
	// stop, and turnWoke that the turn read the call's response or
	// progress, both from Conn.take.
	conn     *Conn
	turnStop error
	turnWoke bool

	// late: the caller takes a result the codec left unchecked, and
	// is told so here (see late.go); nil for any other call.
	late *latecheck.Params

	// Guarded by Conn.mu:
	resp *Response // the peer's answer
	err  error     // the connection ended first

	// Only for calls with OnProgress; the fields below the callback are
	// guarded by Conn.mu.
	onProgress func(Progress)
	progress   []Progress // arrived, not yet passed to onProgress
	// progressBytes is what progress holds, against Options.Queue.
	progressBytes int
	// start and deadline are zero for a call with no deadline; progress
	// moves deadline forward (never past the ceiling) for a call with
	// OnProgress. expired says the deadline passed (see sweep).
	start    time.Time
	deadline time.Time
	ceiling  time.Time // zero: no ceiling
	expired  bool

	// wctx is the context the request is written with when the call
	// has a deadline; it lives here to save allocations per call.
	wctx writeContext
	// onExpire, armed while expiry is expiryArmed, is run by the sweep
	// that expires the call, which sets expiryFired whether armed or not:
	// the transport's way to stop a write still under way at the deadline
	// as it stands then (see writeContext.WatchExpiry).
	onExpire func()
	expiry   atomic.Int32
	// finished is set by finishLocked, once the call is out of the
	// pending set: from then on only the caller's goroutine touches the
	// fields guarded by Conn.mu, and collect reads them without it.
	finished atomic.Bool
}

// States of pendingCall.expiry.
const (
	expiryOff int32 = iota
	expiryArmed
	expiryFired
)

// finishLocked records the outcome and wakes the caller. It is called
// inside update, after the call was removed from the pending set.
func (p *pendingCall) finishLocked(resp *Response, err error) {
	p.recordLocked(resp, err)
	p.wake()
}

// recordLocked records the outcome without waking the caller, for the
// reader of a response to wake it with wake once the connection's lock
// is let go: readying a parked goroutine may start a thread (a futex
// call), which the lock that every caller of the connection takes need
// not wait for.
func (p *pendingCall) recordLocked(resp *Response, err error) {
	p.resp, p.err = resp, err
	p.finished.Store(true)
}

// wake signals the caller without blocking. A signal sent after the
// caller has already collected its outcome (it may find finished set on
// its own) stays in the buffered channel, which nothing reads again.
func (p *pendingCall) wake() {
	select {
	case p.signal <- struct{}{}:
	default:
	}
}

// Call sends a request and waits for its response, returning the raw
// "result" for the caller to decode once. A JSON-RPC error response is
// returned as a *Error. If ctx ends or the call's deadline passes first,
// Call returns at once with an error that says which (errors.Is with
// context.Canceled, or ErrTimeout for any deadline) and sends
// notifications/cancelled in the background. If the connection ends first,
// the error wraps ErrClosed and the cause.
//
// The deadline is opts.Timeout, else the connection's Timeout, else
// DefaultTimeout; it covers writing the request too. Errors for a passed
// deadline also wrap context.DeadlineExceeded; their text says whether it
// was the call's own deadline ("timed out after 30s") or ctx's. A response
// that arrives after Call gave up is dropped without a report. No
// notifications/cancelled is sent for "initialize", as MCP forbids it.
func (c *Conn) Call(ctx context.Context, method string, params any, opts *CallOptions) (json.RawMessage, error) {
	raw, trusted, err := marshalParamsTrusted(params)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: encoding params of %s: %w", method, err)
	}
	if c.prepare != nil {
		if raw, err = c.prepare(method, raw); err != nil {
			return nil, fmt.Errorf("jsonrpc: preparing params of %s: %w", method, err)
		}
	}
	timeout, maxTimeout := c.timeout, c.maxTimeout
	var onProgress func(Progress)
	var onStart func(ID)
	if opts != nil {
		onStart = opts.OnStart
		if opts.Timeout != 0 {
			timeout = resolveTimeout(opts.Timeout, 0)
		}
		if opts.MaxTimeout != 0 {
			maxTimeout = resolveTimeout(opts.MaxTimeout, 0)
		}
		onProgress = opts.OnProgress
	}
	id := c.lastID.Add(1)
	if onProgress != nil {
		if spliced, ok := tokenInParamsRoom(params, raw, id); ok {
			raw = spliced
		} else if raw, err = withProgressToken(raw, id, trusted); err != nil {
			return nil, fmt.Errorf("jsonrpc: %s (id %d): %w", method, id, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, callerError(ctx, method, id)
	}

	p := &pendingCall{
		id: id, method: method, timeout: timeout, signal: make(chan struct{}, 1), conn: c,
		req: Request{ID: Int64ID(id), Method: method, Params: raw},
	}
	p.late, _ = params.(*latecheck.Params)
	if onStart != nil {
		onStart(p.req.ID)
	}
	writeCtx := ctx
	if timeout > 0 {
		start := time.Now()
		p.start, p.deadline = start, start.Add(timeout)
		if onProgress != nil && maxTimeout > 0 {
			p.ceiling = start.Add(maxTimeout)
		}
		p.wctx = writeContext{parent: ctx, deadline: p.deadline, call: p}
		defer p.wctx.release()
		writeCtx = &p.wctx
	}
	p.onProgress = onProgress

	watch := p.deadline.IsZero() || !ctxEndsFirst(ctx, p.deadline)
	var ended error
	c.update(func(s *inFlight) {
		if ended = s.ended; ended == nil {
			s.calls.put(id, p)
			if watch {
				c.watchDeadlineLocked(s, p)
			}
		}
	})
	if ended != nil {
		return nil, closedCallError(method, id, ended)
	}
	if err := c.stream.Write(writeCtx, &p.req); err != nil {
		return c.writeFailed(ctx, writeCtx, p, err)
	}
	return c.wait(ctx, p)
}

// wait blocks until the call has an outcome, ctx ends or the deadline
// passes (the sweep says so, see deadlines.go). Progress callbacks run
// here, on the caller's goroutine, so they never hold up the read loop and
// all progress that arrived before the response is delivered before Call
// returns.
func (c *Conn) wait(ctx context.Context, p *pendingCall) (json.RawMessage, error) {
	readable := c.rd != nil
	for {
		if readable {
			readable = c.readOwnResponse(ctx, p)
		}
		if c.signalled(ctx, p) {
			res, err, ok, expired := c.collect(p)
			if ok {
				return res, err
			}
			if !expired {
				continue
			}
		}
		if ctx.Err() != nil {
			return c.giveUp(p, callerError(ctx, p.method, p.id))
		}
		return c.giveUp(p, c.timeoutError(p))
	}
}

// signalled waits for p's signal or the end of ctx, and reports whether
// it was the signal. The signal is often there already (a JSON reply over
// HTTP is delivered within Write, on this goroutine): then it is taken
// without the select, which would lock ctx's done channel too, a channel
// that all of a program's callers may share.
func (c *Conn) signalled(ctx context.Context, p *pendingCall) bool {
	select {
	case <-p.signal:
		return true
	default:
	}
	select {
	case <-p.signal:
		return true
	case <-ctx.Done():
		return false
	}
}

// collect takes what the read loop left for the call: progress to pass on
// and maybe the outcome (ok), or else whether its deadline passed.
func (c *Conn) collect(p *pendingCall) (res json.RawMessage, err error, ok, expired bool) {
	var resp *Response
	var progress []Progress
	take := func(*inFlight) {
		resp, err, expired = p.resp, p.err, p.expired
		progress, p.progress, p.progressBytes = p.progress, nil, 0
	}
	if p.finished.Load() {
		// Out of the pending set: nothing else writes these any more,
		// and the usual call, answered, spares a turn of the lock that
		// all the connection's callers share.
		take(nil)
	} else {
		c.update(take)
	}
	if len(progress) > 0 {
		c.runProgress(p, progress)
	}
	switch {
	case err != nil:
		return nil, closedCallError(p.method, p.id, err), true, false
	case resp == nil:
		return nil, nil, false, expired
	}
	if resp.late != nil && p.late == nil {
		// Not for this call (takesLate keeps it from happening): checked
		// first, as the codec would have, which may find an error
		// response.
		if d := resp.checkLate(); d != nil {
			return nil, c.refuseLate(p, d), true, false
		}
	}
	switch {
	case resp.Error != nil:
		return nil, resp.Error, true, false
	case resp.late != nil:
		p.late.Unchecked = true
		p.late.Recheck = c.rechecker(p, resp)
	}
	return resp.Result, nil, true, false
}

// giveUp ends a call that the caller or the deadline gave up on: it stops
// being pending, its id is remembered as abandoned, and the peer is told in
// the background. If the response won the race, it is returned instead.
func (c *Conn) giveUp(p *pendingCall, why error) (json.RawMessage, error) {
	answered := false
	c.update(func(s *inFlight) {
		if p.resp != nil || p.err != nil {
			answered = true
			return
		}
		s.calls.del(p.id)
		s.abandoned.add(p.id)
	})
	if answered {
		res, err, _, _ := c.collect(p)
		return res, err
	}
	c.sendCancel(p.id, p.method, cancelReason(why))
	return nil, why
}

// writeFailed ends a call whose request could not be written.
func (c *Conn) writeFailed(ctx, writeCtx context.Context, p *pendingCall, werr error) (json.RawMessage, error) {
	if writeCtx.Err() != nil {
		// The deadline or ctx ended the write. The request may have
		// reached the peer, so it is given up like any other call.
		why := callerError(ctx, p.method, p.id)
		if ctx.Err() == nil {
			why = c.timeoutError(p)
		}
		return c.giveUp(p, why)
	}
	answered := false
	c.update(func(s *inFlight) {
		if p.resp != nil || p.err != nil {
			answered = true
			return
		}
		s.calls.del(p.id)
	})
	if answered {
		res, err, _, _ := c.collect(p)
		return res, err
	}
	if ended := c.Err(); ended != nil {
		return nil, closedCallError(p.method, p.id, ended)
	}
	return nil, fmt.Errorf("jsonrpc: sending %s (id %d): %w", p.method, p.id, werr)
}

// Notify sends a notification. It returns once the stream accepted it.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	raw, err := marshalParams(params)
	if err != nil {
		return fmt.Errorf("jsonrpc: encoding params of %s: %w", method, err)
	}
	if ended := c.Err(); ended != nil {
		return fmt.Errorf("jsonrpc: sending %s: %w", method, ended)
	}
	if err := c.stream.Write(ctx, &Notification{Method: method, Params: raw}); err != nil {
		if ended := c.Err(); ended != nil {
			return fmt.Errorf("jsonrpc: sending %s: %w", method, ended)
		}
		return fmt.Errorf("jsonrpc: sending %s: %w", method, err)
	}
	return nil
}
