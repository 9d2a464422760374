package manager

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// EventKind says what happened to a server.
type EventKind int

// The kinds of Event.
const (
	// Connecting: an attempt to connect started (Attempt counts them).
	Connecting EventKind = iota + 1
	// Connected: the handshake and the first listings succeeded (Tools is
	// the tool count).
	Connected
	// Failed: a connection attempt failed (Err says why).
	Failed
	// Reconnecting: the connection ended or an attempt failed, and the
	// next attempt (Attempt) follows after Delay. Err says why.
	Reconnecting
	// ToolsChanged: the server's tools as Tools() shows them changed
	// (after a connect or a tools/list_changed). Tools is the new count.
	ToolsChanged
	// PromptsChanged and ResourcesChanged: those lists were refreshed
	// after the server announced a change.
	PromptsChanged
	ResourcesChanged
	// Notification: the server sent a notification (every one, including
	// list_changed, logging and progress); see Notification.
	Notification
	// BreakerOpen: the server failed BreakerCrashes times within
	// BreakerWindow, so automatic restarts stopped. Err is the last
	// failure.
	BreakerOpen
	// Closed: the manager stopped the server (Close).
	Closed
	// Warning: something went wrong that stops nothing: a corrupt cache
	// file, a cache that cannot be written, a bad frame from the server,
	// a list refresh that failed. Err says what.
	Warning
)

var eventKindNames = [...]string{
	Connecting:       "connecting",
	Connected:        "connected",
	Failed:           "failed",
	Reconnecting:     "reconnecting",
	ToolsChanged:     "tools-changed",
	PromptsChanged:   "prompts-changed",
	ResourcesChanged: "resources-changed",
	Notification:     "notification",
	BreakerOpen:      "breaker-open",
	Closed:           "closed",
	Warning:          "warning",
}

func (k EventKind) String() string {
	if k > 0 && int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event is one thing that happened to one server.
type Event struct {
	Server string
	Kind   EventKind
	Time   time.Time
	// Err is why, for Failed, Reconnecting, BreakerOpen and Warning.
	Err error
	// Attempt numbers connection attempts since the server was started
	// (Connecting, Reconnecting).
	Attempt int
	// Delay is the wait before the next attempt (Reconnecting).
	Delay time.Duration
	// Tools is the tool count after Connected or ToolsChanged.
	Tools int
	// Notification is the server's message (Notification).
	Notification *jsonrpc.Notification
}

func (e Event) String() string {
	s := fmt.Sprintf("%s: %s", e.Server, e.Kind)
	switch e.Kind {
	case Connecting:
		s += fmt.Sprintf(" (attempt %d)", e.Attempt)
	case Connected, ToolsChanged:
		s += fmt.Sprintf(" (%d tools)", e.Tools)
	case Reconnecting:
		s += fmt.Sprintf(" (attempt %d in %s)", e.Attempt, e.Delay.Round(time.Millisecond))
	case Notification:
		if e.Notification != nil {
			s += " " + e.Notification.Method
		}
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// closeGrace bounds how long Close waits for subscriber callbacks that
// are still running.
const closeGrace = 5 * time.Second

// hub fans events out to subscribers. Each subscriber has its own queue
// and goroutine, so a slow callback delays only itself and never the
// manager; a subscriber sees events in the order they were published.
type hub struct {
	mu     sync.Mutex
	subs   []*subscriber
	closed bool
}

type subscriber struct {
	fn      func(Event)
	removed atomic.Bool
	wake    chan struct{} // cap 1
	done    chan struct{} // closed when the goroutine has returned

	mu    sync.Mutex
	queue []Event
	stop  bool // deliver what is queued, then return
}

func (h *hub) subscribe(fn func(Event)) (unsubscribe func()) {
	sub := &subscriber{fn: fn, wake: make(chan struct{}, 1), done: make(chan struct{})}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return func() {}
	}
	h.subs = append(h.subs, sub)
	h.mu.Unlock()
	go sub.loop()
	return func() {
		if sub.removed.Swap(true) {
			return
		}
		h.mu.Lock()
		for i, s := range h.subs {
			if s == sub {
				h.subs = append(h.subs[:i:i], h.subs[i+1:]...)
				break
			}
		}
		h.mu.Unlock()
		sub.finish()
	}
}

// publish queues e for every subscriber; it never blocks on a callback.
func (h *hub) publish(e Event) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.subs {
		s.push(e)
	}
}

// close delivers what is queued, stops every subscriber and waits for
// their goroutines, at most closeGrace. It reports callbacks that did not
// return in time.
func (h *hub) close() error {
	h.mu.Lock()
	h.closed = true
	subs := h.subs
	h.subs = nil
	h.mu.Unlock()
	for _, s := range subs {
		s.finish()
	}
	timer := time.NewTimer(closeGrace)
	defer timer.Stop()
	for _, s := range subs {
		select {
		case <-s.done:
		case <-timer.C:
			return fmt.Errorf("an event callback did not return within %s", closeGrace)
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
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber) finish() {
	s.mu.Lock()
	s.stop = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *subscriber) loop() {
	defer close(s.done)
	var batch []Event
	for {
		s.mu.Lock()
		batch, s.queue = s.queue, batch[:0]
		stop := s.stop
		s.mu.Unlock()
		for i := range batch {
			if s.removed.Load() {
				return
			}
			s.call(batch[i])
			batch[i] = Event{}
		}
		if len(batch) == 0 {
			if stop {
				return
			}
			<-s.wake
		}
	}
}

// call runs the callback; a panic in it must not take the manager down.
func (s *subscriber) call(e Event) {
	defer func() { _ = recover() }()
	s.fn(e)
}
