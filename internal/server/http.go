package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// HTTPOptions configure a Streamable HTTP handler. The zero value is a
// stateful server that answers requests with SSE streams, primes streams
// (2025-11-25 sessions), numbers events and allows the GET listener and
// DELETE.
type HTTPOptions struct {
	// JSONResponse answers POSTed requests with one application/json
	// response instead of an event stream; what else a request causes
	// (progress, server requests) then goes to the GET stream.
	JSONResponse bool
	// Stateless issues no Mcp-Session-Id: each POST is served by a fresh,
	// already initialized session that ends with the reply. GET and
	// DELETE answer 405.
	Stateless bool
	// NoGET answers GET with 405 (no standalone stream).
	NoGET bool
	// NoDelete answers DELETE with 405 (the server does not let clients
	// end sessions).
	NoDelete bool
	// NoEventIDs leaves the "id" field off every event, which makes
	// streams impossible to resume.
	NoEventIDs bool
	// Priming sends, at the start of every event stream, an event with an
	// id and empty data: "always", "never", or "" for sessions whose
	// protocol version is 2025-11-25 or later, as that version asks.
	Priming string
	// Retry is sent as the priming event's "retry" field when positive.
	Retry time.Duration
	// AllowedOrigins lists Origin values accepted besides loopback ones;
	// any other Origin is refused with 403.
	AllowedOrigins []string
	// SessionKeys, when set, seal every Mcp-Session-Id: it carries what
	// the session negotiated, encrypted and authenticated under the first
	// key (SessionKeySize bytes each), so that any handler given the same
	// keys, in this process or another, serves the session's requests.
	// Every key opens ids, so keys can be rotated. An id that opens under
	// none gets 404. Without keys, sessions live in this handler only.
	SessionKeys [][]byte
	// SessionMaxAge, when positive and SessionKeys are set, bounds how
	// long a sealed id is served after its session started: an older id
	// gets 404 (the client then starts a new session) on every replica,
	// whether it holds the session or would reopen it. It bounds how long
	// an id that leaked, or was ended on another replica, stays usable.
	SessionMaxAge time.Duration
	// SessionWarn receives the session ids refused under SessionKeys (the
	// reason, never the id), at most 10 a minute: the next one after a
	// minute that held some back says how many. Nil discards.
	SessionWarn func(error)
	// Peer, when set, names who sent the request that starts a session
	// (an initialize, or a stateless or 2026-07-28 request); the session's
	// tool handlers read it back as Session.Peer. A gateway in front of
	// the handler puts the authenticated caller there. A session then
	// serves only that caller: a request from another naming its id gets
	// 404 (the legacy handler's Peer does the same).
	Peer func(*http.Request) string
	// SessionIdleTimeout, when positive, ends a session that has been
	// idle that long: no request naming it (an open GET stream is one)
	// and no call of its running. Its id then gets 404, which tells the
	// client to start a new session. With SessionKeys only this handler's
	// copy ends: the id opens again at its next request, until
	// SessionMaxAge. Zero keeps sessions until DELETE.
	SessionIdleTimeout time.Duration
	// MaxSessions, when positive, bounds the sessions the handler keeps
	// at once: a request that would start another (an initialize, or a
	// sealed id this handler does not hold) gets 503 with a JSON-RPC
	// error saying so. Zero is no bound.
	MaxSessions int
	// MaxStatelessRequests bounds the requests the handler serves at once
	// as sessions of their own, one request long: every request in
	// Stateless mode, every 2026-07-28 one (a subscriptions/listen stream
	// among them, for as long as it is open). Past it a request is
	// answered at once with HTTP 503 (Retry-After: 1) whose body is error
	// -32000 ("server busy: N stateless requests already in flight at
	// this endpoint"), and does not run; notifications and responses,
	// which start no work, are never refused. Zero means
	// DefaultMaxStatelessRequests; a negative value, no bound.
	MaxStatelessRequests int
}

// HTTPFailure is a scripted error answer (see HTTPHandler.FailNext).
type HTTPFailure struct {
	// Status is the HTTP status, e.g. 500, 503 or 429.
	Status int
	// RetryAfter, when set, is sent as the Retry-After header.
	RetryAfter string
	// Body is the response body; empty means the status text.
	Body string
}

// HTTPHandler serves a Server over Streamable HTTP (protocol 2025-03-26 and
// later) at whatever path it is mounted on. Its methods script failures
// and expose what it received. Safe for concurrent use.
type HTTPHandler struct {
	srv  *Server
	opts HTTPOptions
	log  RequestLog
	h    http.Handler

	mu       sync.Mutex
	sessions map[string]*httpOut
	failures []HTTPFailure
	cuts     []string // targets of CutNextStream, in order
	closed   bool

	misbehaviours []HTTPMisbehaviour // armed by MisbehaveNext, in order
	closing       chan struct{}      // closed by Close: ends misbehaviours that wait
	draining      chan struct{}      // closed by EndListenStreams (http_drain.go)

	modern    modernHTTP      // see modern_http.go
	stateless statelessPlaces // see http_stateless.go

	// sealer is set by SessionKeys (session_seal.go); sealErr when they
	// are unusable, which every request is then answered with.
	sealer       *sessionSealer
	sealErr      error
	warns        warnLimit            // of SessionWarn
	revoked      map[string]time.Time // session_revoke.go
	revokedOrder []revocation
}

// StreamableHTTPHandler returns an http.Handler serving s over Streamable
// HTTP; opts may be nil.
func (s *Server) StreamableHTTPHandler(opts *HTTPOptions) *HTTPHandler {
	h := &HTTPHandler{srv: s, sessions: map[string]*httpOut{}, closing: make(chan struct{}), draining: make(chan struct{})}
	if opts != nil {
		h.opts = *opts
	}
	h.stateless = newStatelessPlaces(OrDefault(h.opts.MaxStatelessRequests, DefaultMaxStatelessRequests))
	if len(h.opts.SessionKeys) > 0 {
		h.sealer, h.sealErr = newSessionSealer(h.opts.SessionKeys)
	}
	h.h = s.recordingHandler(&h.log, http.HandlerFunc(h.serve))
	return h
}

// maxRequestBody bounds a request body, which is read whole into memory
// before it is decoded: the same bound the client puts on a reply body.
const maxRequestBody = 32 << 20

// ServeHTTP implements http.Handler.
func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxRequestBody)
	h.h.ServeHTTP(w, r)
}

// Requests returns every request received so far, secrets redacted;
// none when the server keeps no record (Options.NoRecord).
func (h *HTTPHandler) Requests() []RecordedRequest { return h.log.Requests() }

// Log is the handler's request log, for waiting on requests.
func (h *HTTPHandler) Log() *RequestLog { return &h.log }

// FailNext makes the next n requests (any method) fail with f instead of
// being served.
func (h *HTTPHandler) FailNext(n int, f HTTPFailure) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for range n {
		h.failures = append(h.failures, f)
	}
}

// CutNextStream makes the reply stream of the next POSTed request that
// matches target (a method, or a tool name for tools/call; "" for any)
// break: the server sends a priming event with an id (and Retry, if set),
// then half of the next event, then drops the connection. The event stays
// in the log, so a client that resumes with GET and Last-Event-ID gets it
// whole, followed by the rest of the reply.
func (h *HTTPHandler) CutNextStream(target string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cuts = append(h.cuts, target)
}

// ExpireSession forgets a session, as a server does when a session times
// out: its open streams end and every later request with its id gets 404
// (from this handler: with SessionKeys, others still open the id).
// It reports whether the session existed.
func (h *HTTPHandler) ExpireSession(id string) bool {
	h.mu.Lock()
	h.revokeLocked(id)
	h.mu.Unlock()
	o := h.forget(id)
	if o == nil {
		return false
	}
	o.ss.shutdown()
	return true
}

// ExpireAllSessions expires every session.
func (h *HTTPHandler) ExpireAllSessions() {
	h.mu.Lock()
	ids := make([]string, 0, len(h.sessions))
	for id := range h.sessions {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	for _, id := range ids {
		h.ExpireSession(id)
	}
}

// SessionIDs returns the ids of the sessions open now.
func (h *HTTPHandler) SessionIDs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.sessions))
	for id := range h.sessions {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Close ends every session, so that open streams finish and an
// httptest.Server can close. Later requests get 503.
func (h *HTTPHandler) Close() {
	h.mu.Lock()
	if !h.closed {
		close(h.closing)
	}
	h.closed = true
	h.mu.Unlock()
	h.ExpireAllSessions()
	h.endModernSessions()
}

func (h *HTTPHandler) forget(id string) *httpOut {
	h.mu.Lock()
	defer h.mu.Unlock()
	o := h.sessions[id]
	h.unregisterLocked(id, o)
	return o
}

func (h *HTTPHandler) takeFailure() (HTTPFailure, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.failures) == 0 {
		return HTTPFailure{}, false
	}
	f := h.failures[0]
	h.failures = h.failures[1:]
	return f, true
}

// scripted reports whether a misbehaviour or a cut is armed.
func (h *HTTPHandler) scripted() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.misbehaviours) > 0 || len(h.cuts) > 0
}

func (h *HTTPHandler) takeCut(method, tool string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, target := range h.cuts {
		if target == "" || target == method || (tool != "" && target == tool) {
			h.cuts = slices.Delete(h.cuts, i, i+1)
			return true
		}
	}
	return false
}

const (
	headerSessionID = "Mcp-Session-Id"
	headerVersion   = "Mcp-Protocol-Version"
)

// httpError answers with status and, as MCP servers do, an id-less
// JSON-RPC error body saying what was wrong.
func httpError(w http.ResponseWriter, status int, code int64, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	body, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{Error: jsonrpc.NewError(code, msg)})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func (h *HTTPHandler) serve(w http.ResponseWriter, r *http.Request) {
	if f, ok := h.takeFailure(); ok {
		writeFailure(w, f)
		return
	}
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if closed {
		httpError(w, http.StatusServiceUnavailable, -32000, "Service Unavailable: the server is closed")
		return
	}
	if h.sealErr != nil {
		httpError(w, http.StatusInternalServerError, -32603, "Internal error: session keys: %v", h.sealErr)
		return
	}
	if !originAllowed(r, h.opts.AllowedOrigins) {
		httpError(w, http.StatusForbidden, -32000, "Forbidden: Origin %q is not allowed", r.Header.Get("Origin"))
		return
	}
	// Read once, here; what serves the request is given the bytes.
	body, err := io.ReadAll(r.Body) // in memory when the recorder read it
	if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
		httpError(w, http.StatusRequestEntityTooLarge, -32000, "Request Entity Too Large: the body is over %d bytes", tooLarge.Limit)
		return
	} else if err != nil {
		httpError(w, http.StatusBadRequest, -32000, "Bad Request: reading the request body: %v", err)
		return
	}
	if h.isModernHTTP(r, body) {
		h.serveModernHTTP(w, r, body)
		return
	}
	if !h.versionHeaderSupported(w, r, body) {
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.servePost(w, r, body)
	case http.MethodGet:
		h.serveGet(w, r)
	case http.MethodDelete:
		h.serveDelete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		httpError(w, http.StatusMethodNotAllowed, -32000, "Method Not Allowed: %s", r.Method)
	}
}

func writeFailure(w http.ResponseWriter, f HTTPFailure) {
	if f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	body := f.Body
	if body == "" {
		body = http.StatusText(f.Status)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(f.Status)
	_, _ = w.Write([]byte(body))
}

// originAllowed accepts requests without Origin (not from a browser),
// loopback origins and the listed ones, to block DNS rebinding.
func originAllowed(r *http.Request, allowed []string) bool {
	origin := r.Header.Get("Origin")
	if origin == "" || slices.Contains(allowed, origin) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func accepts(r *http.Request, types ...string) bool {
	var buf [4]string // the usual Accept lists two types
	offered := buf[:0]
	for _, v := range r.Header.Values("Accept") {
		for part := range strings.SplitSeq(v, ",") {
			if mt := mediaType(part); mt != "" {
				offered = append(offered, mt)
			}
		}
	}
	for _, t := range types {
		if !slices.Contains(offered, t) && !slices.Contains(offered, "*/*") {
			return false
		}
	}
	return true
}

// mediaType is the media type of a Content-Type or Accept value,
// lowercased, or "" when mime.ParseMediaType refuses it. A plain
// "type/subtype" in lowercase (what clients send) is taken as is, without
// the parser's allocations; anything else goes to the parser.
func mediaType(v string) string {
	v = strings.TrimSpace(v)
	if plainMediaType(v) {
		return v
	}
	mt, _, err := mime.ParseMediaType(v)
	if err != nil {
		return ""
	}
	return mt
}

// plainMediaType reports whether v is "type/subtype" of lowercase letters,
// digits and the token characters media types use, which the parser would
// return unchanged.
func plainMediaType(v string) bool {
	slash := strings.IndexByte(v, '/')
	if slash <= 0 || slash == len(v)-1 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case i == slash:
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-', c == '.', c == '+', c == '_', c == '*':
		default:
			return false
		}
	}
	return true
}

// session finds the session a request names: 400 without the header,
// 404 for an unknown (expired, deleted) one, 503 for a sealed one this
// handler has no room to open. The session is held for the request: the
// caller releases it.
func (h *HTTPHandler) session(w http.ResponseWriter, r *http.Request, reqID jsonrpc.ID) *httpOut {
	id := r.Header.Get(headerSessionID)
	if id == "" {
		httpError(w, http.StatusBadRequest, -32000, "Bad Request: %s header is required", headerSessionID)
		return nil
	}
	h.mu.Lock()
	o := h.sessions[id]
	if o != nil && o.ss.ctx.Err() != nil {
		h.unregisterLocked(id, o) // ended by Server.Close
		o = nil
	}
	if o != nil {
		o.hold()
	}
	reopen := o == nil && h.sealer != nil && !h.revokedLocked(id)
	h.mu.Unlock()
	if reopen {
		var err error
		if o, err = h.reopen(id, r); errors.Is(err, errTooManySessions) {
			h.refuseFull(w, reqID)
			return nil
		}
	}
	if o != nil && h.outlived(o.issued) {
		h.warn(h.tooOld(o.issued))
		o.release()
		h.ExpireSession(id)
		o = nil
	}
	if o != nil && !h.ownedBy(o.ss, r) {
		h.warn(errNotOwner)
		o.release()
		o = nil
	}
	if o == nil {
		httpError(w, http.StatusNotFound, -32001, "Session not found")
		return nil
	}
	if !h.versionHeaderMatches(w, r, o, reqID) {
		o.release()
		return nil
	}
	return o
}

func (h *HTTPHandler) newSession(r *http.Request, stateless bool) (*httpOut, error) {
	o := newHTTPOut(h)
	ss, err := h.srv.newSession(o, false)
	if err != nil {
		return nil, err
	}
	o.ss = ss
	h.setPeer(ss, r)
	if stateless {
		ss.mu.Lock()
		ss.initialize = true
		ss.version = LatestProtocolVersion
		ss.mu.Unlock()
		return o, nil
	}
	ss.setID(newSessionID())
	h.mu.Lock()
	if h.fullLocked() {
		h.mu.Unlock()
		ss.shutdown()
		return nil, errTooManySessions
	}
	h.registerLocked(ss.ID(), o)
	h.mu.Unlock()
	return o, nil
}

// setPeer records who started ss, when the options say how to tell.
func (h *HTTPHandler) setPeer(ss *Session, r *http.Request) {
	if h.opts.Peer != nil {
		ss.peer = h.opts.Peer(r)
	}
}

// readPosted checks a POST's Accept and Content-Type and decodes its
// message; on failure it has answered with the error.
func readPosted(w http.ResponseWriter, r *http.Request, body []byte) (jsonrpc.Message, bool) {
	if !postHeadersOK(w, r) {
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		refuseBadFrame(w, err, body)
		return nil, false
	}
	return msg, true
}

// postHeadersOK checks a POST's Accept and Content-Type; on failure it
// has answered with the error.
func postHeadersOK(w http.ResponseWriter, r *http.Request) bool {
	if !accepts(r, "application/json", "text/event-stream") {
		httpError(w, http.StatusNotAcceptable, -32000, "Not Acceptable: Accept must list application/json and text/event-stream")
		return false
	}
	if !isJSONContent(r) {
		refuseContentType(w)
		return false
	}
	return true
}

// isJSONContent reports whether r's body is declared application/json.
func isJSONContent(r *http.Request) bool {
	return mediaType(r.Header.Get("Content-Type")) == "application/json"
}

// refuseContentType is the one answer to a body that is not declared
// JSON, on every endpoint of the core.
func refuseContentType(w http.ResponseWriter) {
	httpError(w, http.StatusUnsupportedMediaType, -32000, "Unsupported Media Type: Content-Type must be application/json")
}

func (h *HTTPHandler) servePost(w http.ResponseWriter, r *http.Request, body []byte) {
	if !postHeadersOK(w, r) {
		return
	}
	msg, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		// Only a body the codec refused is looked at again: a single
		// message, the common case, pays nothing for batches.
		if isBatch(body, err) {
			h.servePostBatch(w, r, body)
			return
		}
		refuseBadFrame(w, err, body)
		return
	}
	req, isReq := msg.(*jsonrpc.Request)
	var o *httpOut
	switch {
	case h.opts.Stateless:
		if isReq {
			if !h.stateless.take() {
				h.refuseStateless(w, req)
				return
			}
			defer h.stateless.leave() // after the session has ended, below
		}
		if o, err = h.newSession(r, true); err != nil {
			httpError(w, http.StatusServiceUnavailable, -32000, "%v", err)
			return
		}
		defer o.ss.shutdown()
	case isReq && req.Method == "initialize":
		if r.Header.Get(headerSessionID) != "" {
			httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, "Bad Request: initialize must not carry %s", headerSessionID)
			return
		}
		if o, err = h.newSession(r, false); errors.Is(err, errTooManySessions) {
			h.refuseFull(w, req.ID)
			return
		} else if err != nil {
			httpError(w, http.StatusServiceUnavailable, -32000, "%v", err)
			return
		}
		defer o.release()
		// The id goes out once initialize has succeeded, below.
	default:
		var id jsonrpc.ID // a notification's or response's: none to answer
		if isReq {
			id = req.ID
		}
		if o = h.session(w, r, id); o == nil {
			return
		}
		defer o.release()
		w.Header().Set(headerSessionID, o.ss.ID())
	}
	if !isReq {
		o.ss.receive(r.Context(), msg)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	// The tool's name only selects scripted misbehaviours and cuts;
	// without any armed, the params are not decoded again for it.
	cut := false
	if h.scripted() {
		tool := ""
		if req.Method == "tools/call" {
			var p struct {
				Name string `json:"name"`
			}
			_ = json.Unmarshal(req.Params, &p)
			tool = p.Name
		}
		if m, ok := h.takeMisbehaviour(req.Method, tool); ok {
			h.misbehave(w, r, req, m)
			return
		}
		cut = !h.opts.JSONResponse && h.takeCut(req.Method, tool)
	}
	st := o.openReply(req.ID, h.opts.JSONResponse, cut)
	if !h.opts.JSONResponse && (cut || h.primes(o, req)) {
		o.mu.Lock()
		o.appendLocked(st, nil, true)
		o.mu.Unlock()
	}
	o.ss.receive(r.Context(), req)
	if req.Method == "initialize" && !h.opts.Stateless {
		// The session handled initialize before receive returned. The
		// spec gives the id on "the HTTP response containing the
		// InitializeResult": a failed initialize gets none, and its
		// session is dropped.
		defer h.dropIfNotInitialized(o)
		if o.ss.isInitialized() {
			id := o.ss.ID()
			if h.sealer != nil {
				var err error
				if id, err = h.sealSession(o); err != nil {
					httpError(w, http.StatusInternalServerError, -32603, "Internal error: %v", err)
					return
				}
			}
			w.Header().Set(headerSessionID, id)
		}
	}
	if h.opts.JSONResponse {
		resp, err := o.waitJSON(r, st)
		if err != nil {
			return // the client left or the session ended; nothing to answer
		}
		b, _ := jsonrpc.EncodeMessage(resp)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		_, _ = w.Write(b)
		return
	}
	o.attach(st)
	defer o.detach(st)
	beginEventStream(w)
	o.writeStream(w, r, st, 0)
}

// dropIfNotInitialized forgets a session whose initialize failed.
func (h *HTTPHandler) dropIfNotInitialized(o *httpOut) {
	if !o.ss.isInitialized() {
		h.ExpireSession(o.ss.ID())
	}
}

// primes reports whether the reply stream of req starts with a priming
// event: by default only in sessions of protocol 2025-11-25 or later (for
// initialize, the version the client asks for).
func (h *HTTPHandler) primes(o *httpOut, req *jsonrpc.Request) bool {
	if req.Method != "initialize" {
		return h.primesSession(o)
	}
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	_ = json.Unmarshal(req.Params, &p)
	return h.primesVersion(p.ProtocolVersion)
}

func (h *HTTPHandler) primesSession(o *httpOut) bool {
	return h.primesVersion(o.ss.ProtocolVersion())
}

func (h *HTTPHandler) primesVersion(version string) bool {
	switch h.opts.Priming {
	case "always":
		return true
	case "never":
		return false
	}
	return version >= "2025-11-25"
}

// startEventStream sends an event stream's response header at once.
func startEventStream(w http.ResponseWriter) {
	beginEventStream(w)
	_ = http.NewResponseController(w).Flush()
}

// beginEventStream sets an event stream's response header without sending
// it; writeStream sends it with the stream's first events.
func beginEventStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

func (h *HTTPHandler) serveGet(w http.ResponseWriter, r *http.Request) {
	if h.opts.NoGET || h.opts.Stateless {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, -32000, "Method Not Allowed: this server offers no GET stream")
		return
	}
	if !accepts(r, "text/event-stream") {
		httpError(w, http.StatusNotAcceptable, -32000, "Not Acceptable: Accept must list text/event-stream")
		return
	}
	if h.refuseWhileDraining(w) {
		return
	}
	o := h.session(w, r, jsonrpc.ID{}) // a GET has no body, so no id
	if o == nil {
		return
	}
	defer o.release()
	w.Header().Set(headerSessionID, o.ss.ID())
	st, pos := o.standalone, 0
	if last := r.Header.Get("Last-Event-ID"); last != "" {
		var err error
		if st, pos, err = o.resumePoint(last); err != nil {
			httpError(w, http.StatusBadRequest, -32000, "Bad Request: %v", err)
			return
		}
	}
	if !o.attach(st) {
		httpError(w, http.StatusConflict, -32000, "Conflict: this stream is already being listened to")
		return
	}
	defer o.detach(st)
	if st == o.standalone && (r.Header.Get("Last-Event-ID") == "" || pos < 0) {
		o.mu.Lock()
		pos = st.delivered
		if h.primesSession(o) {
			o.appendLocked(st, nil, true)
		}
		o.mu.Unlock()
	}
	beginEventStream(w)
	o.writeStream(w, r, st, pos)
}

func (h *HTTPHandler) serveDelete(w http.ResponseWriter, r *http.Request) {
	if h.opts.NoDelete || h.opts.Stateless {
		w.Header().Set("Allow", "GET, POST")
		httpError(w, http.StatusMethodNotAllowed, -32000, "Method Not Allowed: this server does not let clients end sessions")
		return
	}
	o := h.session(w, r, jsonrpc.ID{}) // a DELETE has no body, so no id
	if o == nil {
		return
	}
	o.release()
	h.ExpireSession(o.ss.ID())
	w.WriteHeader(http.StatusOK)
}
