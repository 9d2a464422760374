package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

type methodFunc func(ctx context.Context, req *jsonrpc.Request) (any, error)

// handle runs req's handler: a routed one if a proxy set one, else the
// session's own. The busiest methods are called directly: a method value
// (ss.callTool) returned as a func is an allocation per request.
func (ss *Session) handle(ctx context.Context, req *jsonrpc.Request) (any, error) {
	if h := ss.routedHandler(req.Method); h != nil {
		return h(ctx, req)
	}
	switch req.Method {
	case "tools/call":
		return ss.callTool(ctx, req)
	case "tools/list":
		return ss.listTools(ctx, req)
	}
	return ss.ownHandler(req.Method)(ctx, req)
}

// ownHandler returns the session's own handler for method.
func (ss *Session) ownHandler(method string) methodFunc {
	switch method {
	case "tools/list":
		return ss.listTools
	case "tools/call":
		return ss.callTool
	case "resources/list":
		return ss.listResources
	case "resources/templates/list":
		return ss.listTemplates
	case "resources/read":
		return ss.readResource
	case "resources/subscribe":
		return func(_ context.Context, req *jsonrpc.Request) (any, error) { return nil, ss.subscribe(req, true) }
	case "resources/unsubscribe":
		return func(_ context.Context, req *jsonrpc.Request) (any, error) { return nil, ss.subscribe(req, false) }
	case "prompts/list":
		return ss.listPrompts
	case "prompts/get":
		return ss.getPrompt
	case "completion/complete":
		return ss.complete
	case "logging/setLevel":
		return ss.setLevel
	case "tasks/get", "tasks/result", "tasks/list", "tasks/cancel":
		return ss.taskMethod(method)
	}
	return func(context.Context, *jsonrpc.Request) (any, error) {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: "+method)
	}
}

func invalidParams(format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf(format, args...))
}

// decodeParams decodes req's params into v; absent params leave v as is.
func decodeParams(req *jsonrpc.Request, v any) error {
	if len(req.Params) == 0 {
		return nil
	}
	if err := json.Unmarshal(req.Params, v); err != nil {
		return invalidParams("%s: params: %v", req.Method, err)
	}
	return nil
}

func (ss *Session) initializeSession(req *jsonrpc.Request) (any, error) {
	var p struct {
		ProtocolVersion string          `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      Implementation  `json:"clientInfo"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	if p.ProtocolVersion == "" {
		return nil, invalidParams("initialize: params.protocolVersion is missing")
	}
	srv := ss.srv
	o := srv.opts
	version := o.ProtocolVersion
	if version == "" {
		version = p.ProtocolVersion
		if !slices.Contains(o.SupportedVersions, version) {
			if o.RejectUnsupportedVersion {
				e := invalidParams("unsupported protocol version %q", p.ProtocolVersion)
				e.Data, _ = json.Marshal(map[string]any{"supported": o.SupportedVersions, "requested": p.ProtocolVersion})
				return nil, e
			}
			version = slices.Max(o.SupportedVersions)
		}
	}
	ss.mu.Lock()
	if ss.initialize {
		ss.mu.Unlock()
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "initialize was already answered in this session")
	}
	ss.initialize = true
	ss.version = version
	ss.clientInfo = p.ClientInfo
	ss.clientCaps = p.Capabilities
	ss.mu.Unlock()

	result := map[string]any{
		"protocolVersion": version,
		"capabilities":    srv.capabilities(),
		"serverInfo":      Implementation{Name: o.Name, Title: o.Title, Version: o.Version},
	}
	if o.Instructions != "" {
		result["instructions"] = o.Instructions
	}
	return result, nil
}

func (s *Server) capabilities() any {
	if c := s.routedCapabilities(); len(c) > 0 {
		return c
	}
	if len(s.opts.Capabilities) > 0 {
		return s.opts.Capabilities
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	caps := map[string]any{
		"tools":   map[string]bool{"listChanged": true},
		"logging": struct{}{},
	}
	if len(s.resources)+len(s.templates) > 0 {
		caps["resources"] = map[string]bool{"subscribe": true, "listChanged": true}
	}
	if len(s.prompts) > 0 {
		caps["prompts"] = map[string]bool{"listChanged": true}
	}
	if s.completion != nil {
		caps["completions"] = struct{}{}
	}
	if s.hasTaskToolsLocked() {
		caps["tasks"] = taskCapabilities
	}
	return caps
}

// page cuts items into the page the request's cursor asks for. Cursors
// are opaque to the client: base64 of "offset:N".
func page[T any](s *Server, req *jsonrpc.Request, items []T) ([]T, string, error) {
	var p struct {
		Cursor *string `json:"cursor"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, "", err
	}
	start := 0
	if p.Cursor != nil {
		raw, err := base64.RawURLEncoding.DecodeString(*p.Cursor)
		n, convErr := strconv.Atoi(strings.TrimPrefix(string(raw), "offset:"))
		if err != nil || convErr != nil || !strings.HasPrefix(string(raw), "offset:") || n < 0 || n > len(items) {
			return nil, "", invalidParams("%s: invalid cursor %q", req.Method, *p.Cursor)
		}
		start = n
	}
	end := len(items)
	if size := s.opts.PageSize; size > 0 && start+size < end {
		end = start + size
	}
	next := ""
	if end < len(items) {
		next = base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(end)))
	}
	return items[start:end], next, nil
}

func listResult[T any](key string, items []T, next string) map[string]any {
	if items == nil {
		items = []T{}
	}
	r := map[string]any{key: items}
	if next != "" {
		r["nextCursor"] = next
	}
	return r
}

func (ss *Session) listTools(_ context.Context, req *jsonrpc.Request) (any, error) {
	s := ss.srv
	s.mu.Lock()
	tools := make([]Tool, len(s.tools))
	for i, e := range s.tools {
		tools[i] = e.tool
	}
	s.mu.Unlock()
	items, next, err := page(s, req, tools)
	if err != nil {
		return nil, err
	}
	return listResult("tools", items, next), nil
}

func (ss *Session) listResources(_ context.Context, req *jsonrpc.Request) (any, error) {
	s := ss.srv
	s.mu.Lock()
	res := slices.Clone(s.resources)
	s.mu.Unlock()
	items, next, err := page(s, req, res)
	if err != nil {
		return nil, err
	}
	return listResult("resources", items, next), nil
}

func (ss *Session) listTemplates(_ context.Context, req *jsonrpc.Request) (any, error) {
	s := ss.srv
	s.mu.Lock()
	tmpls := make([]ResourceTemplate, len(s.templates))
	for i, e := range s.templates {
		tmpls[i] = e.tmpl
	}
	s.mu.Unlock()
	items, next, err := page(s, req, tmpls)
	if err != nil {
		return nil, err
	}
	return listResult("resourceTemplates", items, next), nil
}

func (ss *Session) listPrompts(_ context.Context, req *jsonrpc.Request) (any, error) {
	s := ss.srv
	s.mu.Lock()
	prompts := make([]Prompt, len(s.prompts))
	for i, e := range s.prompts {
		prompts[i] = e.prompt
	}
	s.mu.Unlock()
	items, next, err := page(s, req, prompts)
	if err != nil {
		return nil, err
	}
	return listResult("prompts", items, next), nil
}

func (ss *Session) readResource(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		URI string `json:"uri"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	if p.URI == "" {
		return nil, invalidParams("resources/read: params.uri is missing")
	}
	s := ss.srv
	s.mu.Lock()
	i := slices.IndexFunc(s.resources, func(r Resource) bool { return r.URI == p.URI })
	var static *Resource
	if i >= 0 {
		r := s.resources[i]
		static = &r
	}
	templates := slices.Clone(s.templates)
	s.mu.Unlock()
	if static != nil {
		c := static.contents()
		return map[string]any{"contents": []*ResourceContents{&c}}, nil
	}
	for _, t := range templates {
		vars, ok := matchTemplate(t.tmpl.URITemplate, p.URI)
		if !ok {
			continue
		}
		contents, err := t.handler(ctx, p.URI, vars)
		if err != nil {
			return nil, err
		}
		ptrs := make([]*ResourceContents, len(contents))
		for i := range contents {
			ptrs[i] = &contents[i]
		}
		return map[string]any{"contents": ptrs}, nil
	}
	return nil, ResourceNotFound(p.URI)
}

// ResourceNotFound is the error MCP (up to 2025-11-25) answers for an
// unknown resource: code -32002 with data {uri}.
func ResourceNotFound(uri string) *jsonrpc.Error {
	e := jsonrpc.NewError(jsonrpc.CodeResourceNotFound, "resource not found: "+uri)
	e.Data, _ = json.Marshal(map[string]string{"uri": uri})
	return e
}

// matchTemplate matches uri against a template whose variables are simple
// {name} expressions; a variable matches one or more characters other than
// '/'.
func matchTemplate(tmpl, uri string) (map[string]string, bool) {
	vars := map[string]string{}
	for tmpl != "" {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			return vars, tmpl == uri
		}
		if !strings.HasPrefix(uri, tmpl[:open]) {
			return nil, false
		}
		uri = uri[open:]
		closeAt := strings.IndexByte(tmpl[open:], '}')
		if closeAt < 0 {
			return nil, false
		}
		name := tmpl[open+1 : open+closeAt]
		tmpl = tmpl[open+closeAt+1:]
		// The variable runs up to the template's next literal character.
		end := strings.IndexByte(uri, '/')
		if tmpl != "" && tmpl[0] != '{' {
			end = strings.IndexByte(uri, tmpl[0])
		}
		if end < 0 {
			end = len(uri)
		}
		if end == 0 || strings.Contains(uri[:end], "/") {
			return nil, false
		}
		vars[name] = uri[:end]
		uri = uri[end:]
	}
	return vars, uri == ""
}

func (ss *Session) subscribe(req *jsonrpc.Request, on bool) error {
	var p struct {
		URI string `json:"uri"`
	}
	if err := decodeParams(req, &p); err != nil {
		return err
	}
	if p.URI == "" {
		return invalidParams("%s: params.uri is missing", req.Method)
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if on {
		ss.subs[p.URI] = true
	} else {
		delete(ss.subs, p.URI)
	}
	return nil
}

// Subscriptions returns the URIs the client is subscribed to.
func (ss *Session) Subscriptions() []string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]string, 0, len(ss.subs))
	for uri := range ss.subs {
		out = append(out, uri)
	}
	slices.Sort(out)
	return out
}

func (ss *Session) getPrompt(ctx context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	s := ss.srv
	s.mu.Lock()
	i := slices.IndexFunc(s.prompts, func(e promptEntry) bool { return e.prompt.Name == p.Name })
	var entry promptEntry
	if i >= 0 {
		entry = s.prompts[i]
	}
	s.mu.Unlock()
	if i < 0 {
		return nil, invalidParams("prompts/get: unknown prompt %q", p.Name)
	}
	for _, a := range entry.prompt.Arguments {
		if _, ok := p.Arguments[a.Name]; a.Required && !ok {
			return nil, invalidParams("prompts/get %s: missing required argument %q", p.Name, a.Name)
		}
	}
	if p.Arguments == nil {
		p.Arguments = map[string]string{}
	}
	return entry.handler(ctx, p.Arguments)
}

func (ss *Session) complete(ctx context.Context, req *jsonrpc.Request) (any, error) {
	s := ss.srv
	s.mu.Lock()
	h := s.completion
	s.mu.Unlock()
	if h == nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: completion/complete (no completions capability)")
	}
	var p struct {
		Ref struct {
			Type string `json:"type"`
			Name string `json:"name"`
			URI  string `json:"uri"`
		} `json:"ref"`
		Argument struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"argument"`
		Context struct {
			Arguments map[string]string `json:"arguments"`
		} `json:"context"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	cr := &CompletionRequest{RefType: p.Ref.Type, Argument: p.Argument.Name, Value: p.Argument.Value, Context: p.Context.Arguments}
	switch p.Ref.Type {
	case "ref/prompt":
		cr.RefName = p.Ref.Name
	case "ref/resource":
		cr.RefName = p.Ref.URI
	default:
		return nil, invalidParams("completion/complete: ref.type %q is neither ref/prompt nor ref/resource", p.Ref.Type)
	}
	c, err := h(ctx, cr)
	if err != nil {
		return nil, err
	}
	if c == nil {
		c = &Completion{}
	}
	if c.Values == nil {
		c.Values = []string{}
	}
	return map[string]any{"completion": c}, nil
}

func (ss *Session) setLevel(_ context.Context, req *jsonrpc.Request) (any, error) {
	var p struct {
		Level string `json:"level"`
	}
	if err := decodeParams(req, &p); err != nil {
		return nil, err
	}
	if !slices.Contains(logLevels, p.Level) {
		return nil, invalidParams("logging/setLevel: level %q is not one of %v", p.Level, logLevels)
	}
	ss.mu.Lock()
	ss.logLevel = p.Level
	ss.mu.Unlock()
	return nil, nil
}
