package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// LegacySSEHandler serves a Server over the HTTP+SSE transport of protocol
// 2024-11-05: GET <prefix>/sse opens a session's event stream, whose first
// event is "endpoint" with data "<prefix>/message?sessionId=<id>"; the
// client POSTs its messages there (202 "Accepted") and every server
// message arrives as a "message" event on the GET stream. The session ends
// when the GET stream closes. Safe for concurrent use.
type LegacySSEHandler struct {
	srv *Server
	log RequestLog
	h   http.Handler

	mu       sync.Mutex
	sessions map[string]*legacyOut

	// Peer, when set before serving, names who opened each session's
	// stream, as HTTPOptions.Peer does.
	Peer func(*http.Request) string
}

// LegacySSEHandler returns a handler for the legacy HTTP+SSE transport.
func (s *Server) LegacySSEHandler() *LegacySSEHandler {
	h := &LegacySSEHandler{srv: s, sessions: map[string]*legacyOut{}}
	h.h = s.recordingHandler(&h.log, http.HandlerFunc(h.serve))
	return h
}

// ServeHTTP implements http.Handler.
// A POSTed body is bounded as the Streamable handler's is: it is read
// whole into memory.
func (h *LegacySSEHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
	h.h.ServeHTTP(w, r)
}

// Requests returns every request received so far, secrets redacted;
// none when the server keeps no record (Options.NoRecord).
func (h *LegacySSEHandler) Requests() []RecordedRequest { return h.log.Requests() }

// Close ends every session, so that open streams finish.
func (h *LegacySSEHandler) Close() {
	h.mu.Lock()
	open := make([]*legacyOut, 0, len(h.sessions))
	for _, o := range h.sessions {
		open = append(open, o)
	}
	h.mu.Unlock()
	for _, o := range open {
		o.ss.shutdown()
	}
}

// legacyOut queues every message of a session for its one GET stream.
type legacyOut struct {
	mu      sync.Mutex
	queue   [][]byte
	changed chan struct{}
	ss      *Session
	crashed chan struct{}
	once    sync.Once
}

func (o *legacyOut) push(b []byte) {
	o.mu.Lock()
	o.queue = append(o.queue, b)
	close(o.changed)
	o.changed = make(chan struct{})
	o.mu.Unlock()
}

func (o *legacyOut) send(_ context.Context, msg jsonrpc.Message, _ jsonrpc.ID) error {
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	o.push(b)
	return nil
}

func (o *legacyOut) raw(_ context.Context, b []byte, _ jsonrpc.ID) error {
	o.push([]byte(strings.TrimRight(string(b), "\n")))
	return nil
}

func (o *legacyOut) crash() { o.once.Do(func() { close(o.crashed) }) }

func (o *legacyOut) close() {}

func (h *LegacySSEHandler) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/sse"):
		h.serveStream(w, r)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/message"):
		h.servePost(w, r)
	default:
		http.Error(w, "mcptest legacy SSE: GET .../sse or POST .../message?sessionId=…", http.StatusNotFound)
	}
}

func (h *LegacySSEHandler) serveStream(w http.ResponseWriter, r *http.Request) {
	o := &legacyOut{changed: make(chan struct{}), crashed: make(chan struct{})}
	ss, err := h.srv.newSession(o, false)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	o.ss = ss
	if h.Peer != nil {
		ss.peer = h.Peer(r)
	}
	ss.setID(newSessionID())
	h.mu.Lock()
	h.sessions[ss.ID()] = o
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.sessions, ss.ID())
		h.mu.Unlock()
		ss.shutdown()
	}()
	startEventStream(w)
	sw := sse.NewWriter(w)
	endpoint := strings.TrimSuffix(r.URL.Path, "/sse") + "/message?sessionId=" + ss.ID()
	if err := sw.WriteEvent(sse.Event{Type: "endpoint", Data: []byte(endpoint)}); err != nil {
		return
	}
	for {
		o.mu.Lock()
		queue, changed := o.queue, o.changed
		o.queue = nil
		o.mu.Unlock()
		for _, b := range queue {
			if err := sw.WriteEvent(sse.Event{Type: "message", Data: b}); err != nil {
				return
			}
		}
		if len(queue) > 0 {
			continue
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-ss.Done():
			return
		case <-o.crashed:
			panic(http.ErrAbortHandler)
		}
	}
}

func (h *LegacySSEHandler) servePost(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	o := h.sessions[r.URL.Query().Get("sessionId")]
	h.mu.Unlock()
	if o != nil && h.Peer != nil && h.Peer(r) != o.ss.peer {
		o = nil // another caller's session: as if there were none
	}
	if o == nil {
		http.Error(w, "mcptest legacy SSE: unknown sessionId", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
		http.Error(w, fmt.Sprintf("mcptest legacy SSE: the body is over %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
		return
	} else if err != nil {
		http.Error(w, "mcptest legacy SSE: reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	msgs, err := jsonrpc.DecodeFrame(body)
	if err != nil && len(msgs) == 0 {
		http.Error(w, "mcptest legacy SSE: "+err.Error(), http.StatusBadRequest)
		return
	}
	for _, m := range msgs {
		o.ss.receive(m)
	}
	w.WriteHeader(http.StatusAccepted)
	_, _ = w.Write([]byte("Accepted"))
}
