package jsonrpc

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"sync/atomic"
)

// subscription is one Subscribe registration.
type subscription struct {
	method  string
	fn      func(*Notification)
	removed atomic.Bool
}

// Subscribe registers fn for notifications of method, or for every
// notification when method is "". Callbacks run one at a time, in arrival
// order, on a goroutine of the engine (never the read loop, so a slow
// callback delays later notifications but never responses). The returned
// function removes the subscription.
//
// For each notification the subscribers of its method run first, then
// those of "", each group in the order they subscribed. The engine's own
// notifications (progress, cancelled) are delivered too. A callback may
// call Call, Notify and Subscribe; a panic in it is reported to the error
// hook. After unsubscribe returns, fn is not called again, except for a
// delivery already under way at that moment. Notifications queued when
// the connection ends are still delivered; Close waits for them (see
// Close). A nil fn subscribes nothing.
func (c *Conn) Subscribe(method string, fn func(*Notification)) (unsubscribe func()) {
	if fn == nil {
		return func() {}
	}
	sub := &subscription{method: method, fn: fn}
	c.update(func(s *inFlight) {
		// Copy on write: the delivery goroutine may be reading the old slice.
		if s.subs == nil {
			s.subs = make(map[string][]*subscription)
		}
		s.subs[method] = append(slices.Clip(s.subs[method]), sub)
	})
	return func() {
		if sub.removed.Swap(true) {
			return
		}
		c.update(func(s *inFlight) {
			kept := slices.DeleteFunc(slices.Clone(s.subs[method]), func(x *subscription) bool { return x == sub })
			if len(kept) == 0 {
				delete(s.subs, method)
			} else {
				s.subs[method] = kept
			}
		})
	}
}

// enqueue queues n for the subscribers, if there are any, within the
// queue's bounds (see Options.Queue), and makes sure a delivery goroutine
// runs. That goroutine exists only while there is something to deliver,
// so an idle connection holds none.
func (c *Conn) enqueue(n *Notification) {
	class := c.classify(n.Method)
	c.update(func(s *inFlight) {
		if s.ended != nil || len(s.subs) == 0 {
			return
		}
		s.notes().push(n, class, c.queueLimits)
		if !s.delivering {
			s.delivering = c.spawnLocked(s, c.deliverLoop)
		}
	})
}

// deliverLoop hands queued notifications to subscribers, one at a time
// in order, telling OnDropped of drops first, and returns once the queue
// is empty. At most one runs at a time (inFlight.delivering), which keeps
// the arrival order.
func (c *Conn) deliverLoop() {
	for {
		var n *Notification
		var specific, all []*subscription
		var dropped int
		c.update(func(s *inFlight) {
			q := s.notes()
			dropped = q.takeUnreported()
			if q.len() == 0 {
				if dropped == 0 {
					s.delivering = false
				} // else the next round, after the report, ends the loop
				return
			}
			n = q.pop()
			specific, all = s.subs[n.Method], s.subs[""]
		})
		if dropped > 0 {
			c.reportDropped(dropped)
		}
		if n == nil {
			if dropped == 0 {
				return
			}
			continue
		}
		for _, sub := range specific {
			c.callSubscriber(sub, n)
		}
		for _, sub := range all {
			c.callSubscriber(sub, n)
		}
	}
}

// reportDropped tells OnDropped of drops; a panic in it is reported to
// the error hook.
func (c *Conn) reportDropped(k int) {
	if c.onDropped == nil {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			c.report(fmt.Errorf("jsonrpc: the OnDropped callback panicked: %v", v))
		}
	}()
	c.onDropped(k)
}

// QueueStats returns the delivery queue's counters: what waits now, the
// most that ever waited, and how many notifications were dropped or
// coalesced (see Options.Queue).
func (c *Conn) QueueStats() QueueStats {
	var st QueueStats
	c.update(func(s *inFlight) {
		if q := s.queue; q != nil {
			st = q.stats
			st.Length, st.Bytes = q.len(), q.bytes
		}
	})
	st.Limits = c.queueLimits
	return st
}

// onDeliveryGoroutine reports whether its caller runs on a delivery
// goroutine, that is inside a subscriber callback: whether deliverLoop is
// on its stack. Close asks so as not to wait for its own caller, which is
// the one thing a goroutine cannot tell from state; the stack walk costs
// a few microseconds, on Close only.
func onDeliveryGoroutine() bool {
	pcs := make([]uintptr, 64)
	for {
		n := runtime.Callers(2, pcs)
		if n < len(pcs) {
			pcs = pcs[:n]
			break
		}
		pcs = make([]uintptr, 2*len(pcs))
	}
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		if f.Function == deliverLoopFunc {
			return true
		}
		if !more {
			return false
		}
	}
}

// deliverLoopFunc is deliverLoop's name as the runtime reports it.
var deliverLoopFunc = runtime.FuncForPC(reflect.ValueOf((*Conn).deliverLoop).Pointer()).Name()

func (c *Conn) callSubscriber(sub *subscription, n *Notification) {
	if sub.removed.Load() {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			c.report(fmt.Errorf("jsonrpc: subscriber for %s panicked on %s: %v", subscribedTo(sub.method), n.Method, v))
		}
	}()
	sub.fn(n)
}

func subscribedTo(method string) string {
	if method == "" {
		return "all notifications"
	}
	return method
}
