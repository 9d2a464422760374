package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/mcp"
)

// MCP Apps (2026-01-26): a tool whose _meta.ui.resourceUri names a ui://
// resource shows that resource, an HTML view, in the page. The page
// renders it in two iframes: an outer sandbox proxy served from a second
// origin (Server.Sandbox, apps_sandbox.go) and, inside it, the view in an
// opaque origin. The view speaks JSON-RPC to the page over postMessage;
// what it asks of the server comes here, bound to the view's own server.

// UIExtension is the MCP Apps extension's identifier.
const UIExtension = "io.modelcontextprotocol/ui"

// ClientExtensions are the extensions the inspector's client declares
// (mcp.ClientOptions.Extensions): MCP Apps with its one content type.
func ClientExtensions() map[string]json.RawMessage {
	return map[string]json.RawMessage{UIExtension: json.RawMessage(`{"mimeTypes":["` + appMIMEType + `"]}`)}
}

// maxAppViews bounds the views a session keeps: each new one beyond it
// forgets the oldest, whose sandbox then no longer loads.
const maxAppViews = 64

// appView is one rendered view: which server it belongs to, the page
// origin that asked for it, and its sandbox's policy.
type appView struct {
	ID     string
	Server string
	URI    string
	Host   string // the page's origin, the only one that may frame it
	Label  string // how the wire log names the view
	Policy appPolicy

	mu    sync.Mutex
	tools map[string][]string // tool name -> visibility, as last listed
}

// appViews are the session's views by id.
type appViews struct {
	mu    sync.Mutex
	byID  map[string]*appView
	order []string
	n     int
}

func (a *appViews) add(v *appView) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byID == nil {
		a.byID = map[string]*appView{}
	}
	a.n++
	v.Label = fmt.Sprintf("%s (app view %d)", v.Server, a.n)
	a.byID[v.ID] = v
	a.order = append(a.order, v.ID)
	if len(a.order) > maxAppViews {
		delete(a.byID, a.order[0])
		a.order = a.order[1:]
	}
}

func (a *appViews) get(id string) *appView {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.byID[id]
}

// toolVisibility is a tool's _meta.ui.visibility: who may call it,
// "model" (here: the page's tool list) and "app" (views of its server).
// Absent or unreadable, it is both, as the specification defaults.
func toolVisibility(meta map[string]any) []string {
	both := []string{"model", "app"}
	ui, _ := meta["ui"].(map[string]any)
	list, ok := ui["visibility"].([]any)
	if !ok {
		return both
	}
	var out []string
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// modelTools leaves out the tools only apps may call: the page's list is
// the one a model would see.
func modelTools(tools []mcp.Tool, err error) ([]mcp.Tool, error) {
	if err != nil {
		return nil, err
	}
	out := make([]mcp.Tool, 0, len(tools))
	for _, t := range tools {
		if slices.Contains(toolVisibility(t.Meta), "model") {
			out = append(out, t)
		}
	}
	return out, nil
}

func (s *Server) appRoutes(mux *apiMux) {
	mux.HandleFunc("POST /api/apps/view", s.handleAppView)
	mux.HandleFunc("POST /api/apps/call", s.withView(func(ctx context.Context, v *appView, c *mcp.Client, body json.RawMessage) (any, error) {
		var in struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
			Meta      map[string]any  `json:"_meta"`
		}
		if err := decodeObject(body, &in); err != nil {
			return nil, err
		}
		if err := v.mayCall(ctx, c, in.Name); err != nil {
			return nil, err
		}
		if len(in.Arguments) == 0 || string(in.Arguments) == "null" {
			in.Arguments = json.RawMessage("{}")
		}
		return c.CallTool(ctx, in.Name, in.Arguments, &mcp.CallOptions{Meta: in.Meta})
	}))
	mux.HandleFunc("POST /api/apps/read", s.withView(func(ctx context.Context, v *appView, c *mcp.Client, body json.RawMessage) (any, error) {
		var in struct {
			URI string `json:"uri"`
		}
		if err := decodeObject(body, &in); err != nil {
			return nil, err
		}
		return c.ReadResource(ctx, in.URI)
	}))
	mux.HandleFunc("POST /api/apps/log", s.handleAppLog)
}

// handleAppView reads a view's resource and registers its sandbox. It
// answers what the page needs to render it: the HTML, the policy and the
// sandbox's address.
func (s *Server) handleAppView(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Server string `json:"server"`
		URI    string `json:"uri"`
	}
	if err := decodeBody(r, &in); err != nil {
		s.fail(w, err)
		return
	}
	if s.opts.SandboxOrigin == "" {
		s.writeError(w, http.StatusNotImplemented, errors.New("MCP App views need the sandbox origin (Options.SandboxOrigin)"))
		return
	}
	if !strings.HasPrefix(in.URI, "ui://") {
		s.writeError(w, http.StatusBadRequest, fmt.Errorf("an MCP App view is a ui:// resource, not %q", clipText(in.URI, 200)))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), requestTimeout)
	defer cancel()
	c, err := s.opts.Servers.Client(ctx, in.Server)
	if err != nil {
		s.fail(w, err)
		return
	}
	res, err := c.ReadResource(ctx, in.URI)
	if err != nil {
		s.writeError(w, http.StatusBadGateway, err)
		return
	}
	html, meta, err := appHTML(in.URI, res)
	if err != nil {
		s.writeError(w, http.StatusBadGateway, err)
		return
	}
	sandbox, _ := url.Parse(s.opts.SandboxOrigin)
	v := &appView{ID: NewToken(), Server: in.Server, URI: in.URI, Host: "http://" + r.Host,
		Policy: buildAppPolicy(meta, []string{r.Host, sandbox.Host})}
	s.apps.add(v)
	s.writeReply(w, map[string]any{ // the HTML is the server's
		"id": v.ID, "label": v.Label, "html": html, "policy": v.Policy,
		"sandboxOrigin": s.opts.SandboxOrigin,
		"sandbox":       s.opts.SandboxOrigin + "/sandbox.html?view=" + url.QueryEscape(v.ID),
	})
}

// appHTML picks the view's HTML out of a resources/read result, with the
// _meta.ui that configures its sandbox.
func appHTML(uri string, res *mcp.ReadResourceResult) (string, map[string]any, error) {
	for _, rc := range res.Contents {
		if rc.URI != uri {
			continue
		}
		if mt := strings.ReplaceAll(strings.ToLower(rc.MimeType), " ", ""); mt != appMIMEType {
			return "", nil, fmt.Errorf("resource %q is not an MCP App view: its mimeType is %q, not %q", clipText(uri, 200), clipText(rc.MimeType, 100), appMIMEType)
		}
		text := ""
		if rc.IsText() {
			text = *rc.Text
		} else {
			b, err := rc.DecodeBlob()
			if err != nil {
				return "", nil, err
			}
			text = string(b)
		}
		if !utf8.ValidString(text) {
			return "", nil, fmt.Errorf("resource %q: the view's HTML is not UTF-8", clipText(uri, 200))
		}
		return text, rc.Meta, nil
	}
	return "", nil, fmt.Errorf("resources/read of %q returned no contents with that URI", clipText(uri, 200))
}

// mayCall refuses a tool the view may not call: one its server does not
// list, or one whose visibility leaves out "app". A tool not known yet
// makes the list be read again (it may have changed).
func (v *appView) mayCall(ctx context.Context, c *mcp.Client, name string) error {
	v.mu.Lock()
	vis, known := v.tools[name]
	v.mu.Unlock()
	if !known {
		tools, err := c.ListTools(ctx)
		if err != nil {
			return err
		}
		m := make(map[string][]string, len(tools))
		for _, t := range tools {
			m[t.Name] = toolVisibility(t.Meta)
		}
		v.mu.Lock()
		v.tools = m
		vis, known = m[name]
		v.mu.Unlock()
	}
	if !known {
		return withStatus(http.StatusForbidden, fmt.Errorf("refused: server %q has no tool %q (a view calls only its own server's tools)", v.Server, clipText(name, 100)))
	}
	if !slices.Contains(vis, "app") {
		return withStatus(http.StatusForbidden, fmt.Errorf("refused: tool %q is not visible to apps (its _meta.ui.visibility is %q)", clipText(name, 100), vis))
	}
	return nil
}

// withView runs fn for a request of a view (the body names it with
// "view"), with its server's client. The call lasts as long as the page's
// request, and ends when the inspector closes.
func (s *Server) withView(fn func(ctx context.Context, v *appView, c *mcp.Client, body json.RawMessage) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body json.RawMessage
		if err := decodeBody(r, &body); err != nil {
			s.fail(w, err)
			return
		}
		var in struct {
			View string `json:"view"`
		}
		_ = json.Unmarshal(body, &in)
		v := s.apps.get(in.View)
		if v == nil {
			s.writeError(w, http.StatusNotFound, errors.New("no such view (it may have been closed)"))
			return
		}
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(s.ctx, cancel)
		defer stop()
		c, err := s.opts.Servers.Client(ctx, v.Server)
		if err != nil {
			s.fail(w, err)
			return
		}
		out, err := fn(ctx, v, c, body)
		if err != nil {
			s.fail(w, err)
			return
		}
		s.writeReply(w, out)
	}
}

// handleAppLog puts a message between the page and a view on the wire
// timeline: "receive" from the view, "send" to it. Such entries are
// shown, never exported (they crossed no transport).
func (s *Server) handleAppLog(w http.ResponseWriter, r *http.Request) {
	var in struct {
		View      string          `json:"view"`
		Direction string          `json:"direction"`
		Message   json.RawMessage `json:"message"`
	}
	if err := decodeBody(r, &in); err != nil {
		s.fail(w, err)
		return
	}
	v := s.apps.get(in.View)
	if v == nil {
		s.writeError(w, http.StatusNotFound, errors.New("no such view (it may have been closed)"))
		return
	}
	if in.Direction != "send" && in.Direction != "receive" {
		s.writeError(w, http.StatusBadRequest, fmt.Errorf("direction must be send or receive, not %q", clipText(in.Direction, 20)))
		return
	}
	if len(in.Message) == 0 || !strings.HasPrefix(strings.TrimSpace(string(in.Message)), "{") {
		s.writeError(w, http.StatusBadRequest, errors.New("the message must be a JSON object"))
		return
	}
	// What a view sends may quote what it was given, its HTML included.
	s.opts.Wire.addLocal(newWireEntry(time.Now(), v.Label, in.Direction, s.redactJSON(in.Message)))
	writeJSON(w, http.StatusOK, struct{}{})
}

// addLocal appends an entry that crossed no transport (it has no
// recording line, so Export leaves it out).
func (w *Wire) addLocal(e *WireEntry) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.insert(e)
}
