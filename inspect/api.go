package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// requestTimeout bounds the page's protocol requests (lists, reads,
// prompts); tool calls run until they end or are cancelled.
const requestTimeout = 60 * time.Second

func (s *Server) routes(mux *apiMux) {
	mux.HandleFunc("GET /api/events", s.handleEvents)
	mux.HandleFunc("GET /api/servers", s.handleServers)
	mux.HandleFunc("GET /api/tools", s.withClient(func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error) {
		return modelTools(c.ListTools(ctx)) // apps.go: app-only tools stay hidden
	}))
	mux.HandleFunc("GET /api/resources", s.withClient(func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error) {
		res, err := c.ListResources(ctx)
		if err != nil {
			return nil, err
		}
		tmpl, err := c.ListResourceTemplates(ctx)
		if err != nil {
			tmpl = nil // templates are optional; the resources still show
		}
		return map[string]any{"resources": nonNil(res), "templates": nonNil(tmpl)}, nil
	}))
	mux.HandleFunc("GET /api/prompts", s.withClient(func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error) {
		return c.ListPrompts(ctx)
	}))
	mux.HandleFunc("POST /api/read", s.withClient(func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error) {
		var in struct {
			URI string `json:"uri"`
		}
		if err := decodeBody(r, &in); err != nil {
			return nil, err
		}
		return c.ReadResource(ctx, in.URI)
	}))
	mux.HandleFunc("POST /api/prompt", s.withClient(func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error) {
		var in struct {
			Name      string            `json:"name"`
			Arguments map[string]string `json:"arguments"`
		}
		if err := decodeBody(r, &in); err != nil {
			return nil, err
		}
		return c.GetPrompt(ctx, in.Name, in.Arguments)
	}))
	mux.HandleFunc("POST /api/complete", s.withClient(func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error) {
		var in struct {
			Ref       mcp.CompletionRef      `json:"ref"`
			Argument  mcp.CompletionArgument `json:"argument"`
			Arguments map[string]string      `json:"arguments"` // the values already given
		}
		if err := decodeBody(r, &in); err != nil {
			return nil, err
		}
		if in.Ref.Type != mcp.RefPrompt && in.Ref.Type != mcp.RefResource {
			return nil, badRequest("completion of %q: the reference must be a prompt or a resource template", in.Ref.Type)
		}
		return c.Complete(ctx, in.Ref, in.Argument, in.Arguments)
	}))
	mux.HandleFunc("POST /api/subscribe", s.withClient(func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error) {
		var in struct {
			URI       string `json:"uri"`
			Subscribe bool   `json:"subscribe"` // false: unsubscribe
		}
		if err := decodeBody(r, &in); err != nil {
			return nil, err
		}
		if in.Subscribe {
			return struct{}{}, c.SubscribeResource(ctx, in.URI)
		}
		return struct{}{}, c.UnsubscribeResource(ctx, in.URI)
	}))
	mux.HandleFunc("POST /api/loglevel", s.withClient(func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error) {
		var in struct {
			Level mcp.LoggingLevel `json:"level"`
		}
		if err := decodeBody(r, &in); err != nil {
			return nil, err
		}
		if in.Level.Severity() < 0 {
			return nil, badRequest("unknown log level %q", in.Level)
		}
		return struct{}{}, c.SetLogLevel(ctx, in.Level)
	}))
	mux.HandleFunc("POST /api/reconnect", s.handleReconnect)
	mux.HandleFunc("POST /api/signin", s.handleSignIn)
	mux.HandleFunc("POST /api/call", s.handleCall)
	mux.HandleFunc("POST /api/cancel", s.handleCancel)
	mux.HandleFunc("GET /api/wire.jsonl", s.handleExport)
	s.askRoutes(mux)
	mux.HandleFunc("GET /api/report", s.handleReport)
}

// serverView is a server as the page's server list shows it.
type serverView struct {
	ServerState
	Stderr       string                  `json:"stderr,omitempty"`
	Protocol     string                  `json:"protocol,omitempty"`
	Era          string                  `json:"era,omitempty"`
	ServerInfo   *mcp.Implementation     `json:"serverInfo,omitempty"`
	Capabilities *mcp.ServerCapabilities `json:"capabilities,omitempty"`
	Instructions string                  `json:"instructions,omitempty"`
	// SignIn is the page's sign-in to this server, if one was started.
	SignIn *signInView `json:"signIn,omitempty"`
}

func (s *Server) handleServers(w http.ResponseWriter, r *http.Request) {
	var out []serverView
	for _, st := range s.opts.Servers.List() {
		st.Error = s.opts.Redact(st.Error)
		st.NeedsSignIn = st.NeedsSignIn && s.opts.SignIn != nil // the page offers a sign-in
		v := serverView{ServerState: st, Stderr: s.opts.Redact(s.opts.Servers.Stderr(st.Name)), SignIn: s.signIns.view(st.Name)}
		if st.State == "connected" {
			ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
			c, err := s.opts.Servers.Client(ctx, st.Name)
			cancel()
			if err == nil {
				info, caps := c.ServerInfo(), c.ServerCapabilities()
				v.Protocol, v.ServerInfo, v.Capabilities, v.Instructions = c.ProtocolVersion(), &info, &caps, c.Instructions()
				v.Era = "initialize"
				if c.Modern() {
					v.Era = "stateless (server/discover)"
				}
			}
		}
		out = append(out, v)
	}
	s.writeReply(w, nonNil(out)) // info and instructions are the servers' words
}

// handleReconnect ends a server's connection and connects it again; the
// page follows the states on the event stream, and gets the outcome.
func (s *Server) handleReconnect(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Server string `json:"server"`
	}
	if err := decodeBody(r, &in); err != nil {
		s.fail(w, err)
		return
	}
	if in.Server == "" {
		s.fail(w, errNoServerNamed)
		return
	}
	rc, ok := s.opts.Servers.(Reconnecter)
	if !ok {
		s.writeError(w, http.StatusNotImplemented, errors.New("these servers cannot be reconnected from the page"))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	stop := context.AfterFunc(s.ctx, cancel) // the inspector closing ends it too
	defer stop()
	if err := rc.Reconnect(ctx, in.Server); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct{}{})
}

// errNoServerNamed answers a request that names no server.
var errNoServerNamed = badRequest("the request names no server")

// withClient runs fn with the client of the server named by the
// "server" query parameter, answering its result as JSON or its error
// as {"error": "..."} (secrets redacted) with the status statusOf gives.
func (s *Server) withClient(fn func(ctx context.Context, c *mcp.Client, r *http.Request) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Query().Get("server")
		if name == "" {
			s.fail(w, errNoServerNamed)
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
		defer cancel()
		c, err := s.opts.Servers.Client(ctx, name)
		if err != nil {
			s.fail(w, err)
			return
		}
		v, err := fn(ctx, c, r)
		if err != nil {
			s.fail(w, err)
			return
		}
		s.writeReply(w, v)
	}
}

// handleCall starts a tool call; its progress and result reach the page
// as "call" events. It answers the call's id at once.
func (s *Server) handleCall(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Server    string          `json:"server"`
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
		Meta      map[string]any  `json:"meta"`
	}
	if err := decodeBody(r, &in); err != nil {
		s.fail(w, err)
		return
	}
	if len(in.Arguments) == 0 || string(in.Arguments) == "null" {
		in.Arguments = json.RawMessage("{}")
	}
	if !strings.HasPrefix(strings.TrimSpace(string(in.Arguments)), "{") {
		s.fail(w, badRequest("the arguments must be a JSON object"))
		return
	}
	if in.Tool == "" {
		s.fail(w, badRequest("the request names no tool"))
		return
	}
	if in.Server == "" {
		s.fail(w, errNoServerNamed)
		return
	}
	// A server that is not there is the page's mistake, told now rather
	// than as a failed call.
	var target []string
	known := false
	for _, st := range s.opts.Servers.List() {
		if st.Name == in.Server {
			target, known = st.Target, true
		}
	}
	if !known {
		s.fail(w, fmt.Errorf("%w: %q", errNoServer, in.Server))
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	rec := &callRecord{Server: in.Server, Tool: in.Tool, Arguments: in.Arguments, Started: time.Now(), cancel: cancel,
		Command: s.opts.Redact(callCommand(in.Server, target, in.Tool, in.Arguments, s.opts.Redact))}
	if in.Meta != nil {
		rec.Meta, _ = json.Marshal(in.Meta)
	}
	s.calls.add(rec)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		s.runCall(ctx, rec, in.Meta)
	}()
	writeJSON(w, http.StatusOK, map[string]int64{"id": rec.ID})
}

// runCall makes the call and records how it ended.
func (s *Server) runCall(ctx context.Context, rec *callRecord, meta map[string]any) {
	c, err := s.opts.Servers.Client(ctx, rec.Server)
	var res *mcp.CallToolResult
	if err == nil {
		opts := &mcp.CallOptions{Meta: meta, OnProgress: func(_ context.Context, p mcp.ProgressNotification) {
			s.calls.update(rec, func(r *callRecord) { r.Progress = &progress{p.Progress, p.Total, s.opts.Redact(p.Message)} })
		}}
		res, err = c.CallTool(ctx, rec.Tool, rec.Arguments, opts)
	}
	s.calls.update(rec, func(r *callRecord) {
		r.DurationMS = float64(time.Since(r.Started).Microseconds()) / 1000
		var schemaErr *mcp.OutputSchemaError
		switch {
		case err == nil:
			r.State, r.Result = "done", s.resultJSON(res)
		case errors.As(err, &schemaErr) && res != nil:
			// The result came; it fails the tool's outputSchema.
			r.State, r.Result, r.SchemaError = "done", s.resultJSON(res), s.opts.Redact(schemaErr.Error())
		case errors.Is(err, context.Canceled):
			r.State, r.Error = "cancelled", "cancelled"
		default:
			r.State, r.Error = "failed", s.opts.Redact(err.Error())
			r.OpenFirst = s.pagesToOpen(err)
		}
	})
}

// resultJSON is a call's result as the page gets it, secrets masked.
func (s *Server) resultJSON(res *mcp.CallToolResult) json.RawMessage {
	b, err := json.Marshal(res)
	if err != nil {
		return nil
	}
	return s.redactJSON(b)
}

func (s *Server) handleCancel(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ID int64 `json:"id"`
	}
	if err := decodeBody(r, &in); err != nil {
		s.fail(w, err)
		return
	}
	rec := s.calls.get(in.ID)
	if rec == nil {
		s.writeError(w, http.StatusNotFound, fmt.Errorf("no call %d", in.ID))
		return
	}
	rec.cancel()
	writeJSON(w, http.StatusOK, struct{}{})
}

// handleExport downloads the wire buffer in the --record format.
func (s *Server) handleExport(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/jsonl")
	w.Header().Set("Content-Disposition", `attachment; filename="mcpwire-wire-`+strconv.FormatInt(time.Now().Unix(), 10)+`.jsonl"`)
	_ = s.opts.Wire.Export(w)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding the answer failed"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeReply answers v, what servers sent, with the secrets masked.
func (s *Server) writeReply(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "encoding the answer failed"})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.redactJSON(b))
}

func (s *Server) writeError(w http.ResponseWriter, status int, err error) {
	writeJSON(w, status, map[string]string{"error": s.opts.Redact(err.Error())})
}

// nonNil makes an empty list encode as [] rather than null.
func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}
