package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

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
	// MaxSessions, when set before serving and positive, bounds the
	// sessions open at once: a GET past it gets 503. Each holds a
	// connection, so they end with them; the cap bounds a flood.
	MaxSessions int
	// Warn, when set before serving, receives why a session was ended
	// by the server (its client stopped reading its stream); never the
	// session's id.
	Warn func(error)
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
	bytes   int // in queue
	changed chan struct{}
	ss      *Session
	crashed chan struct{}
	once    sync.Once
	// full is closed when the queue went past its bounds: the client
	// does not read its stream, which then ends (see push).
	full     chan struct{}
	fullOnce sync.Once
	// w is the stream's writer, whose write deadline push moves to now
	// to free a write blocked on a client that does not read.
	w http.ResponseWriter
}

// The bounds of a legacy session's queue, as the client's own queues
// have (jsonrpc.DefaultQueueLength and DefaultQueueBytes). Everything
// of this transport travels on the one GET stream, responses included,
// which cannot be dropped: a client that lets its stream fill to these
// bounds has stopped reading, and its session ends instead of growing.
// The stream's writer holds what it took from the queue besides, so a
// session holds at most twice these.
const (
	legacyQueueLength = 1024
	legacyQueueBytes  = 8 << 20
)

func (o *legacyOut) push(b []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.isFull() {
		return // the stream is ending
	}
	// One message larger than the byte bound still goes through an
	// empty queue.
	if len(o.queue) >= legacyQueueLength || (len(o.queue) > 0 && o.bytes+len(b) > legacyQueueBytes) {
		o.fullOnce.Do(func() { close(o.full) })
		// A write blocked on the client fails now, so the stream's
		// handler sees full; without the ability, it sees it once the
		// write returns.
		_ = http.NewResponseController(o.w).SetWriteDeadline(time.Now())
		o.queue, o.bytes = nil, 0
		return
	}
	o.queue = append(o.queue, b)
	o.bytes += len(b)
	close(o.changed)
	o.changed = make(chan struct{})
}

func (o *legacyOut) isFull() bool {
	select {
	case <-o.full:
		return true
	default:
		return false
	}
}

// errLegacyNotReading is why a session whose client stopped reading ends.
var errLegacyNotReading = fmt.Errorf("ended a legacy HTTP+SSE session: its client did not read its stream while %d messages or %d bytes waited", legacyQueueLength, legacyQueueBytes)

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
		http.Error(w, "Not Found: the legacy HTTP+SSE transport serves GET .../sse and POST .../message?sessionId=…", http.StatusNotFound)
	}
}

func (h *LegacySSEHandler) serveStream(w http.ResponseWriter, r *http.Request) {
	o := &legacyOut{changed: make(chan struct{}), crashed: make(chan struct{}), full: make(chan struct{}), w: w}
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
	if h.MaxSessions > 0 && len(h.sessions) >= h.MaxSessions {
		h.mu.Unlock()
		ss.shutdown()
		http.Error(w, fmt.Sprintf("Service Unavailable: %v: this server keeps at most %d sessions open; try again once one ends", errTooManySessions, h.MaxSessions), http.StatusServiceUnavailable)
		return
	}
	h.sessions[ss.ID()] = o
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.sessions, ss.ID())
		h.mu.Unlock()
		ss.shutdown()
		if o.isFull() { // whichever way the stream noticed
			h.warnf(errLegacyNotReading)
		}
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
		o.queue, o.bytes = nil, 0
		o.mu.Unlock()
		if o.isFull() {
			return
		}
		for _, b := range queue {
			if err := sw.WriteEvent(sse.Event{Type: "message", Data: b}); err != nil {
				return // the client went, or push's deadline cut the write
			}
		}
		if len(queue) > 0 {
			continue
		}
		select {
		case <-o.full:
			return
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

func (h *LegacySSEHandler) warnf(err error) {
	if h.Warn != nil {
		h.Warn(err)
	}
}

func (h *LegacySSEHandler) servePost(w http.ResponseWriter, r *http.Request) {
	// As /mcp refuses it, before anything else: a body that is not
	// declared JSON is not read.
	if !isJSONContent(r) {
		refuseContentType(w)
		return
	}
	h.mu.Lock()
	o := h.sessions[r.URL.Query().Get("sessionId")]
	h.mu.Unlock()
	if o != nil && h.Peer != nil && h.Peer(r) != o.ss.peer {
		o = nil // another caller's session: as if there were none
	}
	if o == nil {
		http.Error(w, "Not Found: unknown sessionId", http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
		http.Error(w, fmt.Sprintf("Request Entity Too Large: the body is over %d bytes", tooLarge.Limit), http.StatusRequestEntityTooLarge)
		return
	} else if err != nil {
		http.Error(w, "Bad Request: reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	msgs, err := jsonrpc.DecodeFrame(body)
	if err != nil && len(msgs) == 0 {
		http.Error(w, "Bad Request: "+err.Error(), http.StatusBadRequest)
		return
	}
	for _, m := range msgs {
		o.ss.receive(r.Context(), m)
	}
	w.WriteHeader(http.StatusAccepted)
	_, _ = w.Write([]byte("Accepted"))
}
