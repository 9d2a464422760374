package inspect

import (
	"encoding/json"
	"net/http"
	"sync"

	"github.com/mcpwire/mcpwire/internal/sse"
)

// subscriberQueue bounds the events waiting for one page. A page that
// falls this far behind is cut off; its EventSource reconnects and starts
// again from a fresh snapshot, so nothing blocks the servers.
const subscriberQueue = 4096

// event is one live update for the pages.
type event struct {
	kind string // wire, call, servers, asks
	wire *WireEntry
	call []byte // the call's JSON
}

// hub fans events out to the open event streams.
type hub struct {
	mu     sync.Mutex
	subs   map[chan event]bool
	closed bool
	done   chan struct{}
}

func newHub() *hub { return &hub{subs: map[chan event]bool{}, done: make(chan struct{})} }

func (h *hub) publish(e event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs {
		select {
		case ch <- e:
		default: // too slow: cut off (see subscriberQueue)
			delete(h.subs, ch)
			close(ch)
		}
	}
}

func (h *hub) subscribe() (chan event, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, false
	}
	ch := make(chan event, subscriberQueue)
	h.subs[ch] = true
	return ch, true
}

func (h *hub) unsubscribe(ch chan event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[ch] {
		delete(h.subs, ch)
		close(ch)
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
	ch, ok := s.hub.subscribe()
	if !ok {
		http.Error(w, "the inspector is shutting down", http.StatusServiceUnavailable)
		return
	}
	defer s.hub.unsubscribe(ch)
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	out := sse.NewWriter(w)
	send := func(kind string, v any) bool {
		b, err := json.Marshal(v)
		return err == nil && out.WriteEvent(sse.Event{Type: kind, Data: b}) == nil
	}
	var last int64
	snapshot := s.opts.Wire.Entries()
	if !send("wire-reset", snapshot) {
		return
	}
	if n := len(snapshot); n > 0 {
		last = snapshot[n-1].Seq
	}
	if out.WriteEvent(sse.Event{Type: "asks", Data: s.opts.Hooks.snapshot()}) != nil {
		return
	}
	for _, c := range s.calls.snapshot() {
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
		case e, ok := <-ch:
			if !ok {
				return // cut off: the page reconnects
			}
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
				err = out.WriteEvent(sse.Event{Type: "asks", Data: s.opts.Hooks.snapshot()})
			case "servers":
				err = out.WriteEvent(sse.Event{Type: "servers", Data: []byte("{}")})
			}
			if err != nil {
				return
			}
		}
	}
}
