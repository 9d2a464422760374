package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The 2026-07-28 revision of Streamable HTTP: every POST is served on its
// own, by a session that lives as long as the request; no Mcp-Session-Id,
// no GET stream, no DELETE, no resumption. Headers mirror the body and are
// checked against it; closing a reply stream cancels its request.

const (
	headerMethod     = "Mcp-Method"
	headerName       = "Mcp-Name"
	headerParamPrefx = "Mcp-Param-"
)

// modernHTTP is the HTTPHandler's record of modern requests that the
// client cancelled by closing their reply stream.
type modernHTTP struct {
	mu        sync.Mutex
	open      map[*Session]struct{} // sessions of requests being served
	cancelled []jsonrpc.ID
	changed   chan struct{}
}

// CancelledByClose returns the ids of modern-era requests whose client
// closed the reply stream before the response, which cancelled them, in
// the order their handlers gave up.
func (h *HTTPHandler) CancelledByClose() []jsonrpc.ID {
	h.modern.mu.Lock()
	defer h.modern.mu.Unlock()
	return slices.Clone(h.modern.cancelled)
}

// WaitCancelledByClose waits until the modern-era request id was cancelled
// by its client closing the reply stream and its handler has returned.
func (h *HTTPHandler) WaitCancelledByClose(ctx context.Context, id jsonrpc.ID) error {
	for {
		h.modern.mu.Lock()
		found := slices.Contains(h.modern.cancelled, id)
		if h.modern.changed == nil {
			h.modern.changed = make(chan struct{})
		}
		changed := h.modern.changed
		h.modern.mu.Unlock()
		if found {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("mcptest: waiting for the client to cancel %s by closing its stream: %w", id, ctx.Err())
		}
	}
}

func (h *HTTPHandler) noteCancelled(ids []jsonrpc.ID) {
	if len(ids) == 0 {
		return
	}
	h.modern.mu.Lock()
	h.modern.cancelled = append(h.modern.cancelled, ids...)
	if h.modern.changed != nil {
		close(h.modern.changed)
	}
	h.modern.changed = make(chan struct{})
	h.modern.mu.Unlock()
}

// isModernHTTP reports whether r is served by the modern era: every
// request of a ModernOnly server; in BothEras a POST without a session id
// whose MCP-Protocol-Version is a modern version, or whose body's _meta
// carries the protocol version (except initialize). A header naming a
// version of neither era goes by the body too: with the _meta version the
// modern era's -32020/-32022 answer it, without it it is an older-era
// request, whose answer is that the version is not supported.
func (h *HTTPHandler) isModernHTTP(r *http.Request, body []byte) bool {
	switch h.srv.opts.Eras {
	case LegacyOnly:
		return false
	case ModernOnly:
		return true
	}
	if r.Header.Get(headerSessionID) != "" {
		return false
	}
	v := r.Header.Get(headerVersion)
	namesModern := v != "" && !slices.Contains(h.srv.opts.SupportedVersions, v) && slices.Contains(h.srv.modernVersions(), v)
	if r.Method != http.MethodPost {
		// A GET or DELETE of a 2026-07-28 client: that revision has
		// neither, which 405 says (an older era's GET without a session
		// is a 400).
		return namesModern
	}
	if namesModern {
		return true
	}
	var peek struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(body, &peek) != nil || peek.Method == "initialize" {
		return false
	}
	return hasModernMeta(peek.Params)
}

// httpErrorFor answers status with a JSON-RPC error response; id is
// the request's when it could be read.
func httpErrorFor(w http.ResponseWriter, status int, id jsonrpc.ID, e *jsonrpc.Error) {
	body, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: id, Error: e})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func headerMismatch(format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(CodeHeaderMismatch, "Header mismatch: "+fmt.Sprintf(format, args...))
}

// serveModernHTTP serves one request of the modern era.
func (h *HTTPHandler) serveModernHTTP(w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, -32000, "Method Not Allowed: the %s revision has no %s (no GET stream, no sessions)", ModernProtocolVersion, r.Method)
		return
	}
	msg, ok := readPosted(w, r, body)
	if !ok {
		return
	}
	req, isReq := msg.(*jsonrpc.Request)
	if !isReq {
		// The revision defines no client notifications over HTTP (closing
		// a stream is the cancellation): accept and ignore them.
		if _, isResp := msg.(*jsonrpc.Response); isResp {
			httpError(w, http.StatusBadRequest, jsonrpc.CodeInvalidRequest, "Bad Request: the %s revision has no server-to-client requests to answer", ModernProtocolVersion)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if status, e := h.checkModernHeaders(r, req); e != nil {
		httpErrorFor(w, status, req.ID, e)
		return
	}
	if !h.stateless.take() {
		h.refuseStateless(w, req)
		return
	}
	o := newHTTPOut(h)
	ss, err := h.srv.newSession(o, false)
	if err != nil {
		h.stateless.leave()
		httpError(w, http.StatusServiceUnavailable, -32000, "%v", err)
		return
	}
	o.ss = ss
	h.setPeer(ss, r)
	h.modern.mu.Lock()
	if h.modern.open == nil {
		h.modern.open = map[*Session]struct{}{}
	}
	h.modern.open[ss] = struct{}{}
	h.modern.mu.Unlock()
	defer func() {
		h.modern.mu.Lock()
		delete(h.modern.open, ss)
		h.modern.mu.Unlock()
		ss.shutdown()
		h.stateless.leave() // its session and handler have ended
		h.noteCancelled(ss.Cancelled())
	}()
	// A listen stream is a stream whatever JSONResponse says.
	asJSON := h.opts.JSONResponse && req.Method != "subscriptions/listen"
	cut := !asJSON && h.takeCut(req.Method, toolName(req))
	st := o.openReply(req.ID, asJSON, cut)
	ss.receive(r.Context(), req)
	if asJSON {
		resp, err := o.waitJSON(r, st)
		if err != nil {
			ss.cancelByClient(req.ID)
			return
		}
		writeModernJSON(w, resp)
		return
	}
	if resp := o.firstEvent(r, st); resp != nil {
		writeModernJSON(w, resp) // a modern error is 400, not a stream
		return
	}
	o.attach(st)
	defer o.detach(st)
	w.Header().Set("X-Accel-Buffering", "no")
	beginEventStream(w)
	o.writeStream(w, r, st, 0)
	o.mu.Lock()
	final := st.final
	o.mu.Unlock()
	if !final && r.Context().Err() != nil {
		ss.cancelByClient(req.ID) // closing the stream is the cancellation
	}
}

// writeModernJSON writes a JSON reply; a modern error that a client must
// recognise before any fallback travels with status 400.
func writeModernJSON(w http.ResponseWriter, resp *jsonrpc.Response) {
	b, _ := jsonrpc.EncodeMessage(resp)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	status := http.StatusOK
	if resp.Error != nil {
		switch resp.Error.Code {
		case CodeHeaderMismatch, CodeMissingClientCapability, CodeUnsupportedProtocolVersion:
			status = http.StatusBadRequest
		}
	}
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// cancelByClient cancels the request id as notifications/cancelled does:
// its handler's ctx ends and it gets no response.
func (ss *Session) cancelByClient(id jsonrpc.ID) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.cancelLocked(id)
}

// checkModernHeaders checks the headers the revision requires against the
// body: a missing or different one is 400 -32020 naming it, an
// unsupported version 400 -32022, an unknown method 404 -32601.
func (h *HTTPHandler) checkModernHeaders(r *http.Request, req *jsonrpc.Request) (int, *jsonrpc.Error) {
	version := r.Header.Get(headerVersion)
	if version == "" {
		return http.StatusBadRequest, headerMismatch("Missing MCP-Protocol-Version header")
	}
	if req.Method == "initialize" {
		return http.StatusBadRequest, h.srv.unsupportedVersion(version)
	}
	meta, err := decodeRequestMeta(req.Params)
	if err != nil {
		return http.StatusBadRequest, invalidParams("%s: %v", req.Method, err)
	}
	if !meta.HasVersion || meta.ProtocolVersion != version {
		return http.StatusBadRequest, headerMismatch("MCP-Protocol-Version header value %q does not match body value %q (_meta %s)", version, meta.ProtocolVersion, MetaProtocolVersion)
	}
	if !slices.Contains(h.srv.modernVersions(), version) {
		return http.StatusBadRequest, h.srv.unsupportedVersion(version)
	}
	if got := r.Header.Get(headerMethod); got != req.Method {
		if got == "" {
			return http.StatusBadRequest, headerMismatch("Missing Mcp-Method header")
		}
		return http.StatusBadRequest, headerMismatch("Mcp-Method header value %q does not match body value %q", got, req.Method)
	}
	if !slices.Contains(modernMethods, req.Method) {
		return http.StatusNotFound, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: "+req.Method)
	}
	if e := checkNameHeader(r, req); e != nil {
		return http.StatusBadRequest, e
	}
	if req.Method == "tools/call" {
		if e := h.checkParamHeaders(r, req); e != nil {
			return http.StatusBadRequest, e
		}
	}
	return 0, nil
}

// checkNameHeader checks Mcp-Name against params.name (tools/call,
// prompts/get) or params.uri (resources/read).
func checkNameHeader(r *http.Request, req *jsonrpc.Request) *jsonrpc.Error {
	field := "name"
	switch req.Method {
	case "tools/call", "prompts/get":
	case "resources/read":
		field = "uri"
	default:
		return nil
	}
	var p map[string]json.RawMessage
	_ = json.Unmarshal(req.Params, &p)
	var want string
	_ = json.Unmarshal(p[field], &want)
	raw, present := headerValue(r.Header, headerName)
	if !present {
		return headerMismatch("Missing Mcp-Name header (%s needs it)", req.Method)
	}
	got, err := decodeHeaderValue(raw)
	if err != nil {
		return headerMismatch("Mcp-Name header: %v", err)
	}
	if got != want {
		return headerMismatch("Mcp-Name header value %q does not match body value %q (params.%s)", got, want, field)
	}
	return nil
}

func headerValue(hdr http.Header, name string) (string, bool) {
	vals := hdr.Values(name)
	if len(vals) == 0 {
		return "", false
	}
	return vals[0], true
}

// checkParamHeaders checks the Mcp-Param-{name} headers of the tool's
// x-mcp-header fields against the arguments: a value present in the body
// needs its header with the same value; a header without a value in the
// body, or with invalid characters, is refused too.
func (h *HTTPHandler) checkParamHeaders(r *http.Request, req *jsonrpc.Request) *jsonrpc.Error {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(req.Params, &p)
	s := h.srv
	s.mu.Lock()
	var schema json.RawMessage
	if e, ok := s.toolLocked(p.Name); ok {
		schema = e.tool.InputSchema
	}
	s.mu.Unlock()
	fields, err := headerFields(schema)
	if err != nil || len(fields) == 0 {
		return nil // an unknown tool fails later; a tool with invalid annotations mirrors nothing
	}
	for _, f := range fields {
		want, present, err := argumentAt(p.Arguments, f.path)
		hdrName := headerParamPrefx + f.header
		raw, hasHeader := headerValue(r.Header, hdrName)
		if err != nil {
			return headerMismatch("%s: the argument at arguments.%s is %v", hdrName, strings.Join(f.path, "."), err)
		}
		switch {
		case !present && !hasHeader:
			continue
		case !present:
			return headerMismatch("%s header sent, but the body has no value at arguments.%s", hdrName, strings.Join(f.path, "."))
		case !hasHeader:
			return headerMismatch("Missing %s header (arguments.%s is %s)", hdrName, strings.Join(f.path, "."), want)
		}
		got, err := decodeHeaderValue(raw)
		if err != nil {
			return headerMismatch("%s header: %v", hdrName, err)
		}
		if !sameParamValue(got, want, f.kind) {
			return headerMismatch("%s header value %q does not match body value %q", hdrName, got, want)
		}
	}
	return nil
}

// firstEvent waits for the first event of a modern reply stream before its
// headers go out. When that event is the response and carries a modern
// error (such as -32021, which a handler raises), the response is taken
// off the stream and returned, to be sent as JSON with status 400.
func (o *httpOut) firstEvent(r *http.Request, st *replyStream) *jsonrpc.Response {
	for {
		o.mu.Lock()
		n, final, changed := len(st.events), st.final, st.changed
		var data []byte
		if n == 1 && final {
			data = st.events[0].data
		}
		o.mu.Unlock()
		if data != nil {
			m, err := jsonrpc.DecodeMessage(data)
			resp, ok := m.(*jsonrpc.Response)
			if err != nil || !ok || resp.Error == nil {
				return nil
			}
			switch resp.Error.Code {
			case CodeHeaderMismatch, CodeMissingClientCapability, CodeUnsupportedProtocolVersion:
				return resp
			}
			return nil
		}
		if n > 0 {
			return nil
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return nil
		case <-o.ss.Done():
			return nil
		}
	}
}

// endModernSessions ends the requests being served (long-lived listen
// streams among them), so that Close lets the HTTP server close.
func (h *HTTPHandler) endModernSessions() {
	h.modern.mu.Lock()
	open := make([]*Session, 0, len(h.modern.open))
	for ss := range h.modern.open {
		open = append(open, ss)
	}
	h.modern.mu.Unlock()
	for _, ss := range open {
		ss.shutdown()
	}
}

// toolName is params.name of a tools/call, "" for other methods.
func toolName(req *jsonrpc.Request) string {
	if req.Method != "tools/call" {
		return ""
	}
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(req.Params, &p)
	return p.Name
}
