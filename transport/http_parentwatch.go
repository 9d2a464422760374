package transport

import (
	"context"
	"sync"
)

// Watching the callers' contexts of a stream's POSTs.
//
// A POST in flight must stop when its caller's ctx ends (see
// postCall.watch). One context.AfterFunc per POST does that, but each
// costs two allocations and a registration with the caller's ctx, under
// that ctx's mutex: when many callers share one ctx (the callers of an
// agent's turn, the bench's 64), they all take that one mutex twice per
// call, and the registrations were a tenth of the client's own CPU per
// call (bench/NOTES.md, the nineteenth round).
//
// So the POSTs of one stream that watch the same ctx (the same Done
// channel) share one registration, a parentWatch, which lives while one
// of them is in flight. When the ctx ends, it stops every call in flight
// that watches it. The stream keeps its watches in a short list under its
// mu, which the POST takes anyway to enter (see httpStream.enter). A
// stream with no POST in flight keeps none.
//
// A shared watch is made only for a ctx that the stream's last POST
// watched too, while calls were in flight since: a POST whose ctx is its
// own (a program that bounds each call with a timeout), or one of
// sequential calls, registers by itself, outside the lock, as before
// (postCall.unparent), so that it neither makes the list long nor holds
// the lock that the stream's other POSTs wait for while it registers.

// parentWatch is one registration with a caller's ctx, shared by the POSTs
// in flight that watch it. Its fields are guarded by the stream's mu.
type parentWatch struct {
	s    *httpStream
	done <-chan struct{}
	// fire is pw.fireNow as a func value made once per parentWatch (they
	// are pooled), so that registering costs no closure.
	fire func()
	stop func() bool // undoes the registration
	refs int         // POSTs watching it
	// fired: the ctx ended and fire stopped the calls that watched it; the
	// watch is out of the stream's list.
	fired      bool
	prev, next *parentWatch
}

// parentWatchPool holds free parentWatches, so that a stream whose
// POSTs each watch a ctx of their own (sequential calls) allocates none
// beyond what context.AfterFunc does.
var parentWatchPool sync.Pool

// maxParentScan bounds the search for a watch to share: the POSTs of
// callers with a ctx each may be many, and a watch not found costs only
// what sharing would have saved.
const maxParentScan = 4

// watchParentLocked makes c's POST stop (c.expire, by fire) when the ctx
// parent, whose Done is done, ends, until unwatchParentLocked, if it can
// share a watch of that ctx: one in the list, or a new one when the
// stream's last POST watched that ctx too. Otherwise it returns false,
// and the caller registers c by itself (see enter). The caller holds s.mu.
func (s *httpStream) watchParentLocked(c *postCall, parent context.Context, done <-chan struct{}) bool {
	last := s.lastParent
	s.lastParent = done
	pw := s.parents
	for i := 0; pw != nil && pw.done != done && i < maxParentScan; i++ {
		pw = pw.next
	}
	if pw == nil || pw.done != done {
		if done != last {
			return false
		}
		pw, _ = parentWatchPool.Get().(*parentWatch)
		if pw == nil {
			pw = new(parentWatch)
			pw.fire = pw.fireNow
		}
		pw.s, pw.done, pw.refs, pw.fired = s, done, 0, false
		pw.prev, pw.next = nil, s.parents
		if s.parents != nil {
			s.parents.prev = pw
		}
		s.parents = pw
		// AfterFunc never runs fire on this goroutine, so fire's taking
		// s.mu cannot deadlock with the caller's holding it.
		pw.stop = context.AfterFunc(parent, pw.fire)
	}
	pw.refs++
	c.parent = pw
	return true
}

// unwatchParentLocked undoes watchParentLocked for c. It reports whether
// the ctx's end stopped c meanwhile (fire ran for it). The caller holds
// s.mu.
func (s *httpStream) unwatchParentLocked(c *postCall) (fired bool) {
	pw := c.parent
	c.parent = nil
	fired, c.parentFired = c.parentFired, false
	pw.refs--
	if pw.refs > 0 {
		return fired
	}
	if !pw.fired {
		if !pw.stop() {
			// fire is under way and waits for s.mu; it finds no call
			// of pw's left and lets pw go.
			return fired
		}
		s.unlinkParentLocked(pw)
	}
	pw.s, pw.done, pw.stop = nil, nil, nil
	parentWatchPool.Put(pw)
	return fired
}

// fireNow is the body of pw.fire: pw's ctx ended. Every call in flight
// that watches it is stopped and marked so (see unwatchParentLocked).
func (pw *parentWatch) fireNow() {
	s := pw.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if pw.fired || pw.s != s {
		return
	}
	pw.fired = true
	s.unlinkParentLocked(pw)
	for c := s.running; c != nil; c = c.next {
		if c.parent == pw {
			c.parentFired = true
			c.expireNow()
		}
	}
	if pw.refs == 0 {
		// Its last POST gave up meanwhile, after the ctx ended.
		pw.s, pw.done, pw.stop = nil, nil, nil
		parentWatchPool.Put(pw)
	}
}

// unlinkParentLocked takes pw out of the stream's list of watches.
func (s *httpStream) unlinkParentLocked(pw *parentWatch) {
	if pw.prev != nil {
		pw.prev.next = pw.next
	} else {
		s.parents = pw.next
	}
	if pw.next != nil {
		pw.next.prev = pw.prev
	}
	pw.prev, pw.next = nil, nil
}
