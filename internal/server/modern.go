package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ModernProtocolVersion is the first protocol revision without the
// initialize handshake: every request carries its version, client info and
// capabilities in _meta, and the server keeps no session.
const ModernProtocolVersion = "2026-07-28"

// Error codes the 2026-07-28 revision defines.
const (
	// CodeHeaderMismatch: an HTTP header is missing, malformed or does not
	// match the body (answered with status 400).
	CodeHeaderMismatch = -32020
	// CodeMissingClientCapability: the request needs a client capability
	// the request's _meta did not declare; data {requiredCapabilities}.
	CodeMissingClientCapability = -32021
	// CodeUnsupportedProtocolVersion: the request's protocol version is
	// not one the server speaks; data {supported, requested}.
	CodeUnsupportedProtocolVersion = -32022
)

// Keys of the 2026-07-28 revision in _meta.
const (
	MetaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	MetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
	MetaClientInfo         = "io.modelcontextprotocol/clientInfo"
	MetaLogLevel           = "io.modelcontextprotocol/logLevel"
	MetaServerInfo         = "io.modelcontextprotocol/serverInfo"
	MetaSubscriptionID     = "io.modelcontextprotocol/subscriptionId"
)

// Eras selects which protocol eras a Server speaks.
type Eras int

const (
	// BothEras (the default) serves legacy clients, which open with
	// initialize, and modern ones, which send server/discover or requests
	// carrying the protocol version in _meta. The era is chosen per stdio
	// connection by its first request and per HTTP request by its shape.
	BothEras Eras = iota
	// ModernOnly speaks only the 2026-07-28 revision: initialize is
	// rejected with -32022 naming the supported versions (over HTTP it
	// lacks the required headers and gets 400 -32020), and GET and DELETE
	// get 405.
	ModernOnly
	// LegacyOnly speaks only the versions up to 2025-11-25, exactly as
	// before the modern era existed: server/discover before initialize is
	// an invalid request and after it an unknown method.
	LegacyOnly
)

// String returns "both", "modern" or "legacy".
func (e Eras) String() string {
	switch e {
	case BothEras:
		return "both"
	case ModernOnly:
		return "modern"
	case LegacyOnly:
		return "legacy"
	}
	return fmt.Sprintf("Eras(%d)", int(e))
}

// parseEras reads "both", "modern" or "legacy" (as EnvEras does).
func parseEras(s string) (Eras, error) {
	for _, e := range []Eras{BothEras, ModernOnly, LegacyOnly} {
		if s == e.String() {
			return e, nil
		}
	}
	return 0, fmt.Errorf("mcptest: eras %q is not one of both, modern, legacy", s)
}

// modernState is the Server's state for the modern era.
type modernState struct {
	mu        sync.Mutex
	requests  []ModernRequest
	listeners map[*listener]struct{}
	shed      int
	cache     map[string]CacheHint
}

// ModernRequest is a modern-era request as the server received it, with
// the _meta fields decoded, for tests to assert what a client sent.
type ModernRequest struct {
	ID     jsonrpc.ID
	Method string
	// ProtocolVersion, ClientInfo, ClientCapabilities and LogLevel are the
	// request's _meta fields (zero when absent).
	ProtocolVersion    string
	ClientInfo         *Implementation
	ClientCapabilities json.RawMessage
	LogLevel           string
	// Params are the request's params as sent.
	Params json.RawMessage
}

// ModernRequests returns every modern-era request that passed the
// version and _meta checks so far (on any transport), in arrival order.
// Requests refused earlier are in the HTTP request log (HTTPHandler.Requests)
// or the stdio session's Received. None are kept under Options.NoRecord.
func (s *Server) ModernRequests() []ModernRequest {
	s.modern.mu.Lock()
	defer s.modern.mu.Unlock()
	return slices.Clone(s.modern.requests)
}

// CacheHint is what a cacheable result (server/discover, the lists,
// resources/read) says about caching it in the modern era.
type CacheHint struct {
	// TTLMillis is sent as ttlMs: how long the result stays fresh.
	TTLMillis int64
	// Scope is sent as cacheScope: "public" or "private".
	Scope string
}

// defaultCacheHint is sent when no hint was set: immediately stale and
// private, which never lets a client serve a stale or shared answer.
var defaultCacheHint = CacheHint{TTLMillis: 0, Scope: "private"}

// cacheableMethods are the methods whose results carry ttlMs and cacheScope.
var cacheableMethods = []string{"server/discover", "tools/list", "resources/list", "resources/templates/list", "prompts/list", "resources/read"}

// SetCacheHint sets the ttlMs and cacheScope that the modern-era results of
// method (one of server/discover, tools/list, resources/list,
// resources/templates/list, prompts/list, resources/read) carry. It
// panics for another method: that is a bug in the test.
func (s *Server) SetCacheHint(method string, h CacheHint) {
	if !slices.Contains(cacheableMethods, method) {
		panic(fmt.Sprintf("mcptest: SetCacheHint: %s results are not cacheable", method))
	}
	s.modern.mu.Lock()
	defer s.modern.mu.Unlock()
	if s.modern.cache == nil {
		s.modern.cache = map[string]CacheHint{}
	}
	s.modern.cache[method] = h
}

func (s *Server) cacheHint(method string) (CacheHint, bool) {
	if !slices.Contains(cacheableMethods, method) {
		return CacheHint{}, false
	}
	s.modern.mu.Lock()
	defer s.modern.mu.Unlock()
	if h, ok := s.modern.cache[method]; ok {
		return h, true
	}
	return defaultCacheHint, true
}

func (s *Server) modernVersions() []string {
	if len(s.opts.ModernVersions) > 0 {
		return s.opts.ModernVersions
	}
	return []string{ModernProtocolVersion}
}

// requestMeta is the decoded _meta of a modern request.
type requestMeta struct {
	ProtocolVersion    string
	HasVersion         bool
	ClientInfo         *Implementation
	ClientCapabilities json.RawMessage
	LogLevel           string
}

// decodeRequestMeta reads the modern-era keys of params._meta. Params that
// are not an object, or keys of the wrong type, are errors naming the key.
func decodeRequestMeta(params json.RawMessage) (requestMeta, error) {
	var m requestMeta
	if len(params) == 0 || string(params) == "null" {
		return m, nil
	}
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return m, fmt.Errorf("params: %v", err)
	}
	if raw, ok := p.Meta[MetaProtocolVersion]; ok {
		if err := json.Unmarshal(raw, &m.ProtocolVersion); err != nil {
			return m, fmt.Errorf("_meta %s is not a string", MetaProtocolVersion)
		}
		m.HasVersion = true
	}
	if raw, ok := p.Meta[MetaClientCapabilities]; ok {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
			return m, fmt.Errorf("_meta %s is not an object", MetaClientCapabilities)
		}
		m.ClientCapabilities = raw
	}
	if raw, ok := p.Meta[MetaClientInfo]; ok {
		var info Implementation
		if err := json.Unmarshal(raw, &info); err != nil {
			return m, fmt.Errorf("_meta %s is not an Implementation: %v", MetaClientInfo, err)
		}
		m.ClientInfo = &info
	}
	if raw, ok := p.Meta[MetaLogLevel]; ok {
		if err := json.Unmarshal(raw, &m.LogLevel); err != nil || !slices.Contains(logLevels, m.LogLevel) {
			return m, fmt.Errorf("_meta %s is not one of %v", MetaLogLevel, logLevels)
		}
	}
	return m, nil
}

// hasModernMeta reports whether params carry _meta's protocol version key,
// which is what marks a request as modern-era.
func hasModernMeta(params json.RawMessage) bool {
	if !strings.Contains(string(params), MetaProtocolVersion) {
		return false // the common, legacy case costs no decoding
	}
	m, err := decodeRequestMeta(params)
	return err != nil || m.HasVersion
}

// isModern reports whether req is served by the modern era: never in a
// LegacyOnly server or a session opened with initialize; always in a
// ModernOnly server; otherwise when it is server/discover or carries the
// protocol version in _meta.
func (ss *Session) isModern(req *jsonrpc.Request) bool {
	switch ss.srv.opts.Eras {
	case LegacyOnly:
		return false
	case ModernOnly:
		return true
	}
	if ss.isInitialized() || req.Method == "initialize" {
		return false
	}
	return req.Method == "server/discover" || hasModernMeta(req.Params)
}

// modernCall is what a handler's ctx knows about the modern request it
// serves.
type modernCall struct {
	meta  requestMeta
	round *inputRound // nil for methods that cannot ask for input
}

type modernKey struct{}

func modernFrom(ctx context.Context) *modernCall {
	mc, _ := ctx.Value(modernKey{}).(*modernCall)
	return mc
}

// minLogLevel is the least severe level the client wants to get for the
// request of ctx: the _meta level of a modern request (none when absent,
// reported as ok false), else the session's logging/setLevel level.
func (ss *Session) minLogLevel(ctx context.Context) (string, bool) {
	if mc := modernFrom(ctx); mc != nil {
		return mc.meta.LogLevel, mc.meta.LogLevel != ""
	}
	return ss.LogLevel(), true
}

// unsupportedVersion is the -32022 error with data {supported, requested}.
func (s *Server) unsupportedVersion(requested string) *jsonrpc.Error {
	supported := s.modernVersions()
	e := jsonrpc.NewError(CodeUnsupportedProtocolVersion, fmt.Sprintf("Unsupported protocol version %q (supported: %s)", requested, strings.Join(supported, ", ")))
	e.Data, _ = json.Marshal(map[string]any{"supported": supported, "requested": requested})
	return e
}

// modernMethods are the methods of the modern era this server implements.
var modernMethods = []string{
	"server/discover", "subscriptions/listen",
	"tools/list", "tools/call",
	"resources/list", "resources/templates/list", "resources/read",
	"prompts/list", "prompts/get", "completion/complete",
}

// inputMethods are the methods whose result may be input_required.
var inputMethods = []string{"tools/call", "prompts/get", "resources/read"}

// serveModern answers one modern-era request: it checks the version and
// _meta, records the request, runs the method and decorates its result
// with resultType, serverInfo and, for cacheable results, the cache hint.
func (ss *Session) serveModern(ctx context.Context, req *jsonrpc.Request) (any, error) {
	s := ss.srv
	if req.Method == "initialize" {
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(req.Params, &p)
		return nil, s.unsupportedVersion(p.ProtocolVersion)
	}
	meta, err := decodeRequestMeta(req.Params)
	if err != nil {
		return nil, invalidParams("%s: %v", req.Method, err)
	}
	if !meta.HasVersion {
		return nil, invalidParams("%s: _meta %s is required", req.Method, MetaProtocolVersion)
	}
	if !slices.Contains(s.modernVersions(), meta.ProtocolVersion) {
		return nil, s.unsupportedVersion(meta.ProtocolVersion)
	}
	if meta.ClientCapabilities == nil {
		return nil, invalidParams("%s: _meta %s is required", req.Method, MetaClientCapabilities)
	}
	if !s.opts.NoRecord {
		s.modern.mu.Lock()
		s.modern.requests = append(s.modern.requests, ModernRequest{
			ID: req.ID, Method: req.Method, ProtocolVersion: meta.ProtocolVersion, ClientInfo: meta.ClientInfo,
			ClientCapabilities: meta.ClientCapabilities, LogLevel: meta.LogLevel, Params: req.Params,
		})
		s.modern.mu.Unlock()
	}

	mc := &modernCall{meta: meta}
	ctx = context.WithValue(ctx, modernKey{}, mc)
	var result any
	switch {
	case !slices.Contains(modernMethods, req.Method):
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: "+req.Method)
	case req.Method == "server/discover":
		result = ss.discover()
	case req.Method == "subscriptions/listen":
		result, err = ss.listen(ctx, req)
	case slices.Contains(inputMethods, req.Method):
		result, err = ss.serveWithInput(ctx, mc, req)
	default:
		result, err = ss.handle(ctx, req)
	}
	if err != nil {
		return nil, modernError(err)
	}
	return s.decorateResult(req.Method, result)
}

// modernError maps legacy error codes onto the modern era's: a missing
// resource is -32602 (it was -32002).
func modernError(err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) && je.Code == jsonrpc.CodeResourceNotFound {
		e := jsonrpc.NewError(jsonrpc.CodeInvalidParams, je.Message)
		e.Data = je.Data
		return e
	}
	return err
}

func (ss *Session) discover() any {
	o := ss.srv.opts
	r := map[string]any{
		"supportedVersions": ss.srv.modernVersions(),
		"capabilities":      ss.srv.capabilities(),
	}
	if o.Instructions != "" {
		r["instructions"] = o.Instructions
	}
	return r
}

// decorateResult adds resultType (unless the result has one), the
// serverInfo in _meta and, for cacheable methods, ttlMs and cacheScope
// (unless the result sets them).
func (s *Server) decorateResult(method string, result any) (json.RawMessage, error) {
	raw, err := json.Marshal(result)
	if err != nil {
		return nil, err
	}
	fields := map[string]json.RawMessage{}
	if string(raw) != "null" {
		if err := json.Unmarshal(raw, &fields); err != nil {
			return nil, fmt.Errorf("mcptest: %s result is not an object: %w", method, err)
		}
	}
	set := func(key string, v any) {
		if _, ok := fields[key]; !ok {
			fields[key], _ = json.Marshal(v)
		}
	}
	set("resultType", "complete")
	if h, ok := s.cacheHint(method); ok && string(fields["resultType"]) == `"complete"` {
		set("ttlMs", h.TTLMillis)
		set("cacheScope", h.Scope)
	}
	meta := map[string]json.RawMessage{}
	if m, ok := fields["_meta"]; ok {
		_ = json.Unmarshal(m, &meta)
	}
	if _, ok := meta[MetaServerInfo]; !ok {
		meta[MetaServerInfo], _ = json.Marshal(Implementation{Name: s.opts.Name, Title: s.opts.Title, Version: s.opts.Version})
	}
	fields["_meta"], _ = json.Marshal(meta)
	return json.Marshal(fields)
}

// call is Session.Call within a modern request: an input request of the
// request's round, or an error for methods that cannot ask for input.
func (mc *modernCall) call(method string, params any) (json.RawMessage, error) {
	if mc.round == nil {
		return nil, fmt.Errorf("mcptest: %s to the client: in the %s era only tools/call, prompts/get and resources/read can ask the client for input", method, ModernProtocolVersion)
	}
	return mc.round.call(method, params)
}

type sessionKey struct{}

// SessionFromContext returns the session whose request a handler's ctx
// serves (nil outside a handler), so that prompt and resource template
// handlers can ask the client for input as tool handlers do through
// ToolRequest.Session. In the modern era the session lives as long as the
// request (HTTP) or the connection (stdio).
func SessionFromContext(ctx context.Context) *Session {
	ss, _ := ctx.Value(sessionKey{}).(*Session)
	return ss
}
