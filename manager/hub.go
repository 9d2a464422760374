package manager

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// closeGrace bounds how long Close waits for subscribers to take the
// state changes still queued for them.
const closeGrace = 5 * time.Second

// hub fans events out to subscribers. Each subscriber has its own bounded
// queue and goroutine, so a slow callback delays only itself and never the
// manager or another subscriber; a subscriber sees events in the order
// they were published, less the ones dropped from a full queue.
type hub struct {
	// Of each subscriber's queue: Options.EventQueue and
	// Options.EventQueueBytes.
	limit, limitBytes int

	mu   sync.Mutex
	subs []*subscriber
	// halted are unsubscribed subscribers, whose callback under way Close
	// still waits for.
	halted  []*subscriber
	closing bool // Close began: no new subscriber, no droppable event
}

type subscriber struct {
	fn                func(Event)
	limit, limitBytes int
	wake              chan struct{} // cap 1
	done              chan struct{} // closed when the goroutine has returned

	mu      sync.Mutex
	queue   eventQueue
	dropped int // droppable events dropped since the last Dropped event
	// stop: no callback starts any more (unsubscribed, or Close gave
	// up); drain: return once the queue is empty (Close).
	stop, drain bool
	// callStart is when the callback under way started; zero when none.
	callStart time.Time
}

func (h *hub) subscribe(fn func(Event)) (unsubscribe func()) {
	sub := &subscriber{fn: fn, limit: h.limit, limitBytes: h.limitBytes, wake: make(chan struct{}, 1), done: make(chan struct{})}
	h.mu.Lock()
	if h.closing {
		h.mu.Unlock()
		return func() {}
	}
	h.subs = append(h.subs, sub)
	h.mu.Unlock()
	go sub.loop()
	return func() {
		h.mu.Lock()
		for i, s := range h.subs {
			if s == sub {
				h.subs = append(h.subs[:i:i], h.subs[i+1:]...)
				h.halted = append(slices.DeleteFunc(h.halted, (*subscriber).finished), sub)
				break
			}
		}
		h.mu.Unlock()
		sub.halt()
	}
}

// publish queues e for every subscriber; it never blocks on a callback.
// Once Close began, notifications and warnings are no longer queued.
func (h *hub) publish(e Event) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closing && e.Kind.droppable() {
		return
	}
	for _, s := range h.subs {
		s.push(e)
	}
}

// quiesce is the start of Close: the notifications and warnings queued
// are dropped (they are about servers being shut down) and later ones are
// not queued; state changes still are, up to the servers' Closed.
func (h *hub) quiesce() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closing = true
	for _, s := range h.subs {
		s.mu.Lock()
		s.queue.dropAll(EventKind.droppable)
		s.dropped = 0
		s.mu.Unlock()
	}
}

// close lets every subscriber deliver the state changes queued and waits
// for their goroutines, at most closeGrace in all. Then no callback
// starts any more; the error says what was cut short.
func (h *hub) close() error {
	h.mu.Lock()
	h.closing = true
	subs := append(h.subs, h.halted...)
	h.subs, h.halted = nil, nil
	h.mu.Unlock()
	for _, s := range subs {
		s.mu.Lock()
		s.drain = true
		s.mu.Unlock()
		s.poke()
	}
	start := time.Now()
	timer := time.NewTimer(closeGrace)
	defer timer.Stop()
	for _, s := range subs {
		select {
		case <-s.done:
		case <-timer.C:
			// The grace is over: stop every subscriber not done yet.
			var errs []error
			for _, s := range subs {
				if err := s.abandon(start); err != nil {
					errs = append(errs, err)
				}
			}
			return errors.Join(errs...)
		}
	}
	return nil
}

func (s *subscriber) push(e Event) {
	s.mu.Lock()
	if s.stop {
		s.mu.Unlock()
		return
	}
	if e.Kind == Dropped && e.Server != "" && s.queue.addDropped(e) {
		s.mu.Unlock()
		s.poke()
		return
	}
	size := e.size()
	for s.full(size) && s.queue.dropOldest(EventKind.droppable) {
		s.dropped++
	}
	if s.full(size) && e.Kind.droppable() {
		// Full of state changes: the new notification is the oldest
		// droppable event there is.
		s.dropped++
	} else {
		s.queue.push(e)
	}
	s.mu.Unlock()
	s.poke()
}

// full reports whether an event of size finds no room in the queue. An
// empty queue takes any one event, however large.
func (s *subscriber) full(size int) bool {
	n := s.queue.len()
	return n >= s.limit || (n > 0 && s.queue.bytes+size > s.limitBytes)
}

// finished reports whether the subscriber's goroutine has returned.
func (s *subscriber) finished() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

func (s *subscriber) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// halt stops deliveries after the callback under way (unsubscribe).
func (s *subscriber) halt() {
	s.mu.Lock()
	s.stop = true
	s.queue.dropAll(func(EventKind) bool { return true })
	s.mu.Unlock()
	s.poke()
}

// abandon stops a subscriber that did not finish within the grace that
// began at start, and says what it left undone: a callback that has been
// running since before start, or events a slow subscriber did not reach.
// It returns nil if the subscriber had finished.
func (s *subscriber) abandon(start time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished() {
		return nil
	}
	s.stop = true
	left := s.queue.len()
	s.queue.dropAll(func(EventKind) bool { return true })
	if !s.callStart.IsZero() && !s.callStart.After(start) {
		return fmt.Errorf("an event callback still running after %s (%d queued events not delivered)",
			time.Since(s.callStart).Round(time.Millisecond), left)
	}
	return fmt.Errorf("a subscriber still had %d queued events after %s; not delivered", left, closeGrace)
}

func (s *subscriber) loop() {
	defer close(s.done)
	for {
		e, ok, quit := s.next()
		if quit {
			return
		}
		if !ok {
			<-s.wake
			continue
		}
		s.call(e)
	}
}

// next takes the event to deliver: a Dropped report first when events
// were dropped, then the oldest queued. quit says the goroutine is done.
func (s *subscriber) next() (e Event, ok, quit bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.callStart = time.Time{}
	switch {
	case s.stop:
		return Event{}, false, true
	case s.dropped > 0:
		e = Event{Kind: Dropped, Dropped: s.dropped, Time: time.Now()}
		s.dropped = 0
	case s.queue.len() > 0:
		e = s.queue.pop()
	default:
		return Event{}, false, s.drain
	}
	s.callStart = time.Now()
	return e, true, false
}

// call runs the callback; a panic in it must not take the manager down.
func (s *subscriber) call(e Event) {
	defer func() { _ = recover() }()
	s.fn(e)
}

// eventQueue is a FIFO of events that can drop its oldest event of some
// kinds. Its memory stays within about twice its longest length; bytes is
// what its events count for (see Event.size).
type eventQueue struct {
	buf   []Event
	head  int
	bytes int
}

func (q *eventQueue) len() int { return len(q.buf) - q.head }

func (q *eventQueue) push(e Event) {
	if q.head > 0 && len(q.buf) == cap(q.buf) {
		n := copy(q.buf, q.buf[q.head:])
		clear(q.buf[n:])
		q.buf, q.head = q.buf[:n], 0
	}
	q.buf = append(q.buf, e)
	q.bytes += e.size()
}

func (q *eventQueue) pop() Event {
	e := q.buf[q.head]
	q.bytes -= e.size()
	q.buf[q.head] = Event{}
	q.head++
	if q.head == len(q.buf) {
		q.buf, q.head = q.buf[:0], 0
	}
	return e
}

// dropOldest removes the oldest event whose kind is in, keeping the order
// of the others, and reports whether there was one. The events before it
// are state changes, few by construction, so the shift is short.
func (q *eventQueue) dropOldest(in func(EventKind) bool) bool {
	for i := q.head; i < len(q.buf); i++ {
		if in(q.buf[i].Kind) {
			q.bytes -= q.buf[i].size()
			copy(q.buf[q.head+1:i+1], q.buf[q.head:i])
			q.buf[q.head] = Event{}
			q.head++
			if q.head == len(q.buf) {
				q.buf, q.head = q.buf[:0], 0
			}
			return true
		}
	}
	return false
}

// dropAll removes every event whose kind is in.
func (q *eventQueue) dropAll(in func(EventKind) bool) {
	kept := q.buf[:0]
	q.bytes = 0
	for _, e := range q.buf[q.head:] {
		if !in(e.Kind) {
			kept = append(kept, e)
			q.bytes += e.size()
		}
	}
	clear(q.buf[len(kept):])
	q.buf, q.head = kept, 0
}

// addDropped adds a server's Dropped report to one of the same server
// still queued, and reports whether there was one: a server whose
// notifications overflow reports often, and the reports must not pile up
// (they are state changes, never dropped).
func (q *eventQueue) addDropped(e Event) bool {
	for i := q.head; i < len(q.buf); i++ {
		if q.buf[i].Kind == Dropped && q.buf[i].Server == e.Server {
			q.buf[i].Dropped += e.Dropped
			return true
		}
	}
	return false
}
