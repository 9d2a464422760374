package jsonrpc

import (
	"context"
	"sync"
	"time"
)

// Calls' deadlines.
//
// One timer per connection watches the deadlines of all its calls, rather
// than one context with a timer per call: with many callers on one
// connection the per-call timer, its entry in the caller's ctx and their
// removal were a tenth of a call's cost over a local pipe (bench/NOTES.md,
// the thirteenth round). The timer is armed for the earliest deadline it
// knows of; a call with a later deadline (the usual case, all calls having
// the same timeout) changes nothing, and a call that ends leaves the timer
// as it is: when it fires early, it finds what is due and arms itself for
// the earliest deadline left. A call whose deadline passed is marked
// expired and woken, and gives up on its own goroutine (see wait).

// ctxEndsFirst reports whether ctx ends before deadline: then the call
// ends by ctx (wait, and a turn's read, watch it) before the sweep could
// matter, and the call need not arm it. A caller that bounds each call
// with a ctx shorter than the call's timeout, as many do, then makes the
// connection no timer at all: an idle session holds none (bench/NOTES.md,
// the sixteenth round).
func ctxEndsFirst(ctx context.Context, deadline time.Time) bool {
	d, ok := ctx.Deadline()
	return ok && d.Before(deadline) && ctx.Done() != nil
}

// watchDeadlineLocked makes sure the sweep runs by p's deadline. It is
// called inside update, when p becomes pending.
func (c *Conn) watchDeadlineLocked(s *inFlight, p *pendingCall) {
	if p.deadline.IsZero() || (!s.sweepAt.IsZero() && !p.deadline.Before(s.sweepAt)) {
		return
	}
	c.armSweepLocked(s, p.deadline)
}

// armSweepLocked sets the sweep to run at at. It is called inside update.
func (c *Conn) armSweepLocked(s *inFlight, at time.Time) {
	s.sweepAt = at
	if s.sweeper == nil {
		s.sweeper = time.AfterFunc(time.Until(at), c.sweep)
		return
	}
	s.sweeper.Reset(time.Until(at))
}

// sweep expires the calls whose deadline passed and arms the timer for the
// earliest deadline left. A call whose deadline a running handler of the
// peer's requests may move (one with OnProgress: see pushIdleDeadlinesLocked)
// gets that move first.
func (c *Conn) sweep() {
	now := time.Now()
	var stopWrites []func()
	defer func() {
		// Outside the lock: they stop the transport's writes.
		for _, f := range stopWrites {
			f()
		}
	}()
	c.update(func(s *inFlight) {
		s.sweepAt = time.Time{}
		if s.ended != nil {
			return
		}
		var next time.Time
		s.calls.each(func(_ int64, p *pendingCall) {
			if p.deadline.IsZero() || p.expired {
				return
			}
			if !p.deadline.After(now) && len(s.handling) > 0 {
				p.pushDeadlineLocked(now)
			}
			if !p.deadline.After(now) {
				p.expired = true
				if p.expiry.Swap(expiryFired) == expiryArmed {
					stopWrites = append(stopWrites, p.onExpire)
				}
				select {
				case p.signal <- struct{}{}:
				default:
				}
				return
			}
			if next.IsZero() || p.deadline.Before(next) {
				next = p.deadline
			}
		})
		if !next.IsZero() {
			c.armSweepLocked(s, next)
		}
	})
}

// writeContext is the context a call's request is written with: the
// caller's ctx, ending at the call's deadline too. It becomes a real
// context with a timer (context.WithDeadline) only when something asks for
// its Done channel, as a write that waits does; a write that does not wait
// (the usual case over a pipe) only asks Err, which needs no timer.
type writeContext struct {
	parent   context.Context
	deadline time.Time    // the call's own as it was first, never zero
	call     *pendingCall // whose context this is

	mu    sync.Mutex
	inner context.Context // made by real
	stop  context.CancelFunc
}

func (w *writeContext) Deadline() (time.Time, bool) {
	if d, ok := w.parent.Deadline(); ok && d.Before(w.deadline) {
		return d, true
	}
	return w.deadline, true
}

// real returns the context with a timer, making it on first use.
func (w *writeContext) real() context.Context {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.inner == nil {
		w.inner, w.stop = context.WithDeadline(w.parent, w.deadline)
	}
	return w.inner
}

// WriteParts returns what the context is made of: the caller's ctx and
// the call's deadline. A transport that watches a write for the end of its
// context (the Streamable HTTP one does, while its POST is in flight) can
// watch the two with a timer it reuses instead of asking Done, which would
// make the timer and context of real once per call.
func (w *writeContext) WriteParts() (context.Context, time.Time) {
	return w.parent, w.deadline
}

// WatchExpiry has f run, once, when the engine expires the call (its
// deadline passed, as progress and the peer's requests may have moved
// it), until UnwatchExpiry; at once if the call expired already. A
// transport whose write waits for the peer's reply (the Streamable HTTP
// one, for a JSON reply) stops the write with it: the first deadline,
// which WriteParts and Done know, may have been moved since. f runs on
// the engine's timer goroutine, outside its lock; it must not block.
func (w *writeContext) WatchExpiry(f func()) {
	w.call.onExpire = f
	if !w.call.expiry.CompareAndSwap(expiryOff, expiryArmed) {
		f() // expired already
	}
}

// UnwatchExpiry ends WatchExpiry. It reports whether f ran or is about
// to run.
func (w *writeContext) UnwatchExpiry() (fired bool) {
	if w.call.expiry.CompareAndSwap(expiryArmed, expiryOff) {
		w.call.onExpire = nil
		return false
	}
	return w.call.expiry.Load() == expiryFired
}

func (w *writeContext) made() context.Context {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.inner
}

func (w *writeContext) Done() <-chan struct{} { return w.real().Done() }

// Err says the deadline passed once the engine expired the call (see
// sweep), at the deadline as progress and the peer's requests moved it:
// a write that fails on its own after the first deadline is then a failed
// write, not a timeout. Once Done was asked for, the timer made then,
// which knows only the first deadline, decides, so that Err agrees with
// Done.
func (w *writeContext) Err() error {
	if inner := w.made(); inner != nil {
		return inner.Err()
	}
	if err := w.parent.Err(); err != nil {
		return err
	}
	if w.call.expiry.Load() == expiryFired {
		return context.DeadlineExceeded
	}
	return nil
}

// Value asks the real context once there is one, so that a context
// derived from this one after Done was asked for is tied to its timer
// (the context package finds a parent's cancellation through Value).
func (w *writeContext) Value(key any) any {
	if inner := w.made(); inner != nil {
		return inner.Value(key)
	}
	return w.parent.Value(key)
}

// AfterFunc lets a context derived from this one be cancelled with it
// without a goroutine of its own (the context package looks for this
// method on a parent it does not know).
func (w *writeContext) AfterFunc(f func()) func() bool {
	return context.AfterFunc(w.real(), f)
}

// release stops the timer, if one was made; the call is over.
func (w *writeContext) release() {
	if inner := w.made(); inner != nil {
		w.stop()
	}
}
