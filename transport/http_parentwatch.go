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
	fired bool
	next  *parentWatch
}

// parentWatchPool holds free parentWatches, so that a stream whose
// POSTs each watch a ctx of their own (sequential calls) allocates none
// beyond what context.AfterFunc does.
var parentWatchPool sync.Pool

// maxParentScan bounds the search for a watch to share: callers with a ctx
// each may have many POSTs in flight, and a watch not found is only one
// registration more.
const maxParentScan = 8

// watchParentLocked makes c's POST stop (c.expire, by fire) when the ctx
// parent, whose Done is done, ends, until unwatchParentLocked. The caller
// holds s.mu.
func (s *httpStream) watchParentLocked(c *postCall, parent context.Context, done <-chan struct{}) {
	pw := s.parents
	for i := 0; pw != nil && pw.done != done && i < maxParentScan; i++ {
		pw = pw.next
	}
	if pw == nil || pw.done != done {
		pw, _ = parentWatchPool.Get().(*parentWatch)
		if pw == nil {
			pw = new(parentWatch)
			pw.fire = pw.fireNow
		}
		pw.s, pw.done, pw.refs, pw.fired = s, done, 0, false
		pw.next, s.parents = s.parents, pw
		// AfterFunc never runs fire on this goroutine, so fire's taking
		// s.mu cannot deadlock with the caller's holding it.
		pw.stop = context.AfterFunc(parent, pw.fire)
	}
	pw.refs++
	c.parent = pw
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
	pw.s, pw.done, pw.stop, pw.next = nil, nil, nil, nil
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
		pw.s, pw.done, pw.stop, pw.next = nil, nil, nil, nil
		parentWatchPool.Put(pw)
	}
}

// unlinkParentLocked takes pw out of the stream's list of watches.
func (s *httpStream) unlinkParentLocked(pw *parentWatch) {
	for p := &s.parents; *p != nil; p = &(*p).next {
		if *p == pw {
			*p = pw.next
			pw.next = nil
			return
		}
	}
}
