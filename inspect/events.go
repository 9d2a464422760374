package inspect

import (
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/internal/sse"
)

// subscriberQueue bounds the events waiting for one page. A page that
// falls this far behind is cut off; its EventSource reconnects and starts
// again from a fresh snapshot, so nothing blocks the servers.
const subscriberQueue = 4096

// subscriberBytes bounds the size of the events waiting for one page, as
// subscriberQueue bounds their number: the queue holds wire entries the
// wire buffer may have let go, so a server's big messages behind a slow
// page would otherwise pile up far past the buffer's own bound. A page
// further behind than a whole buffer is better served by a fresh snapshot.
const subscriberBytes = DefaultWireBytes

// event is one live update for the pages.
type event struct {
	kind string // wire, call, servers, asks
	wire *WireEntry
	call []byte // the call's JSON
}

// cost is what e counts against subscriberBytes: the message or call it
// carries (the others are small).
func (e event) cost() int {
	if e.wire != nil {
		return e.wire.cost()
	}
	return len(e.call)
}

// subscriber is one page's event stream: its queue and the bytes in it.
type subscriber struct {
	ch     chan event
	queued atomic.Int64
}

// took tells that the page's stream has taken e off the queue.
func (s *subscriber) took(e event) { s.queued.Add(-int64(e.cost())) }

// hub fans events out to the open event streams.
type hub struct {
	mu     sync.Mutex
	subs   map[*subscriber]bool
	closed bool
	done   chan struct{}
}

func newHub() *hub { return &hub{subs: map[*subscriber]bool{}, done: make(chan struct{})} }

// publish queues e for every page. A page too far behind, in events or
// in bytes, is cut off (see subscriberQueue); one event larger than the
// byte bound still goes to a page whose queue is empty, so that it is
// not cut off again on every reconnect.
func (h *hub) publish(e event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	cost := int64(e.cost())
	for sub := range h.subs {
		if q := sub.queued.Load(); q > 0 && q+cost > subscriberBytes {
			h.cutOff(sub)
			continue
		}
		sub.queued.Add(cost) // before the send: the stream may take it at once
		select {
		case sub.ch <- e:
		default:
			h.cutOff(sub)
		}
	}
}

// cutOff ends sub's stream; h.mu is held.
func (h *hub) cutOff(sub *subscriber) {
	delete(h.subs, sub)
	close(sub.ch)
}

func (h *hub) subscribe() (*subscriber, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, false
	}
	sub := &subscriber{ch: make(chan event, subscriberQueue)}
	h.subs[sub] = true
	return sub, true
}

func (h *hub) unsubscribe(sub *subscriber) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[sub] {
		h.cutOff(sub)
	}
}

func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
}

// handleEvents streams the page's live updates: first the wire buffer and
// every call so far, then each change as it happens. Subscribing before
// taking the snapshot and skipping what the snapshot had (by sequence
// number) loses nothing and repeats nothing.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	sub, ok := s.hub.subscribe()
	if !ok {
		http.Error(w, "the inspector is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer s.hub.unsubscribe(sub)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	out := sse.NewWriter(w)
	send := func(kind string, v any) bool {
		b, err := json.Marshal(v)
		return err == nil && out.WriteEvent(sse.Event{Type: kind, Data: b}) == nil
	}
	var last int64
	// The calls are taken before the wire: a call's state in the
	// snapshot then never runs ahead of the wire entries it came with (a
	// call that ended meanwhile is "done" in the calls, and its messages
	// are in the wire's snapshot or queued after it).
	calls := s.calls.snapshot()
	snapshot := s.opts.Wire.Entries()
	if !send("wire-reset", snapshot) {
		return
	}
	if n := len(snapshot); n > 0 {
		last = snapshot[n-1].Seq
	}
	if out.WriteEvent(sse.Event{Type: "asks", Data: s.redactJSON(s.opts.Hooks.snapshot())}) != nil {
		return
	}
	for _, c := range calls {
		if out.WriteEvent(sse.Event{Type: "call", Data: c}) != nil {
			return
		}
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.hub.done:
			return
		case e, ok := <-sub.ch:
			if !ok {
				return // cut off: the page reconnects
			}
			sub.took(e)
			var err error
			switch e.kind {
			case "wire":
				kind := "wire"
				if e.wire.HTTP != nil && e.wire.Kind != "http" {
					kind = "wire-http" // an update of an entry the page has (an "http" entry is new)
				} else if e.wire.Seq <= last {
					continue
				}
				if !send(kind, e.wire) {
					return
				}
			case "call":
				err = out.WriteEvent(sse.Event{Type: "call", Data: e.call})
			case "asks":
				err = out.WriteEvent(sse.Event{Type: "asks", Data: s.redactJSON(s.opts.Hooks.snapshot())})
			case "servers":
				err = out.WriteEvent(sse.Event{Type: "servers", Data: []byte("{}")})
			}
			if err != nil {
				return
			}
		}
	}
}
