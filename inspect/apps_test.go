package inspect

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// appServer has a tool with a view, an app-only tool, a model-only tool
// and the view's resource.
func appServer() *mcptest.Server {
	srv := mcptest.NewDefault(nil)
	echo := func(_ context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		return mcptest.TextResult("ran " + req.Name), nil
	}
	srv.AddTool(mcptest.Tool{Name: "show", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://demo/view.html"}}`)}, echo)
	srv.AddTool(mcptest.Tool{Name: "refresh", Meta: json.RawMessage(`{"ui":{"resourceUri":"ui://demo/view.html","visibility":["app"]}}`)}, echo)
	srv.AddTool(mcptest.Tool{Name: "secret", Meta: json.RawMessage(`{"ui":{"visibility":["model"]}}`)}, echo)
	srv.AddResource(mcptest.Resource{URI: "ui://demo/view.html", Name: "view", MIMEType: appMIMEType, Text: "<!doctype html><p>view</p>"})
	srv.AddResource(mcptest.Resource{URI: "ui://demo/plain.txt", Name: "plain", MIMEType: "text/plain", Text: "x"})
	return srv
}

func appPage(t *testing.T) (*page, *httptest.Server) {
	t.Helper()
	var sandbox http.Handler
	sb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sandbox.ServeHTTP(w, r) }))
	t.Cleanup(sb.Close)
	p := newPageOn(t, appServer(), Options{SandboxOrigin: sb.URL})
	sandbox = p.srv.Sandbox()
	return p, sb
}

func postStatus(t *testing.T, p *page, path, body string) (int, string) {
	t.Helper()
	resp := p.do(t, http.MethodPost, path, body, nil)
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// App-only tools are left out of the page's list; a view calls its
// server's tools that apps may see, and no other.
func TestAppOnlyToolsHiddenAndRefused(t *testing.T) {
	p, _ := appPage(t)
	resp := p.do(t, http.MethodGet, "/api/tools?server=demo", "", nil)
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"show"`) || strings.Contains(string(b), `"refresh"`) {
		t.Errorf("the tool list shows an app-only tool or hides a normal one: %s", b)
	}
	view := postJSON[struct{ ID, HTML, Sandbox string }](t, p, "/api/apps/view", `{"server":"demo","uri":"ui://demo/view.html"}`)
	if view.HTML != "<!doctype html><p>view</p>" || view.ID == "" {
		t.Fatalf("view: %+v", view)
	}
	res := postJSON[struct{ Content []struct{ Text string } }](t, p, "/api/apps/call", `{"view":"`+view.ID+`","name":"refresh"}`)
	if len(res.Content) != 1 || res.Content[0].Text != "ran refresh" {
		t.Errorf("the view's call of its app-only tool: %+v", res)
	}
	for name, want := range map[string]string{"secret": "not visible to apps", "nothere": "has no tool"} {
		code, body := postStatus(t, p, "/api/apps/call", `{"view":"`+view.ID+`","name":"`+name+`"}`)
		if code == http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("view calls %s: %d %s, want a refusal saying %q", name, code, body, want)
		}
	}
	if code, _ := postStatus(t, p, "/api/apps/call", `{"view":"forged","name":"refresh"}`); code != http.StatusNotFound {
		t.Errorf("a call for no view: %d, want 404", code)
	}
	if code, body := postStatus(t, p, "/api/apps/view", `{"server":"demo","uri":"ui://demo/plain.txt"}`); code == http.StatusOK || !strings.Contains(body, "not an MCP App view") {
		t.Errorf("a text/plain resource as a view: %d %s", code, body)
	}
}

// The sandbox origin serves a registered view's proxy only, to this
// machine's Host, framable only by the page, under the view's CSP; a
// view's messages are on the timeline but never exported.
func TestSandboxOriginGuard(t *testing.T) {
	p, sb := appPage(t)
	view := postJSON[struct{ ID, Sandbox string }](t, p, "/api/apps/view", `{"server":"demo","uri":"ui://demo/view.html"}`)
	get := func(path, host string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, sb.URL+path, nil)
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	ok := get(strings.TrimPrefix(view.Sandbox, sb.URL), "")
	csp := ok.Header.Get("Content-Security-Policy")
	if ok.StatusCode != http.StatusOK || !strings.Contains(csp, "connect-src 'none'") || !strings.Contains(csp, "frame-ancestors "+p.ts.URL) {
		t.Errorf("sandbox page: %s, CSP %q", ok.Status, csp)
	}
	for what, resp := range map[string]*http.Response{
		"no view":      get("/sandbox.html", ""),
		"forged view":  get("/sandbox.html?view=forged", ""),
		"foreign Host": get(strings.TrimPrefix(view.Sandbox, sb.URL), "evil.example:80"),
		// The page's port is another listener: the Host must name this one.
		"the page's port in Host": get(strings.TrimPrefix(view.Sandbox, sb.URL), p.ts.Listener.Addr().String()),
		"other path":              get("/api/servers", ""),
	} {
		if resp.StatusCode < 400 {
			t.Errorf("%s: %s, want a refusal", what, resp.Status)
		}
	}
	postJSON[struct{}](t, p, "/api/apps/log", `{"view":"`+view.ID+`","direction":"receive","message":{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"height":10}}}`)
	var shown bool
	for _, e := range p.wire.Entries() {
		shown = shown || e.Method == "ui/notifications/size-changed"
	}
	var export strings.Builder
	_ = p.wire.Export(&export)
	if !shown || strings.Contains(export.String(), "size-changed") || export.Len() == 0 {
		t.Errorf("view message shown %v; export %q", shown, export.String())
	}
}

// The CSP holds declared origins only, in their directives; anything that
// would loosen it, or reach the inspector itself, is refused.
func TestAppPolicy(t *testing.T) {
	meta := map[string]any{"ui": map[string]any{
		"csp": map[string]any{
			"connectDomains":  []any{"https://api.example.com", "*", "'unsafe-eval'", "https://x.test; script-src *", "http://127.0.0.1:8080", "http://localhost:9000"},
			"resourceDomains": []any{"https://*.cdn.example", "data:", "http://127.0.0.1:*"},
		},
		"permissions": map[string]any{"camera": map[string]any{}, "clipboardWrite": map[string]any{}, "usb": map[string]any{}},
	}}
	p := buildAppPolicy(meta, []string{"127.0.0.1:8080", "127.0.0.1:8081"})
	want := "default-src 'none'; script-src 'unsafe-inline' https://*.cdn.example; style-src 'unsafe-inline' https://*.cdn.example; img-src data: https://*.cdn.example; font-src https://*.cdn.example; media-src data: https://*.cdn.example; connect-src https://api.example.com http://localhost:9000; frame-src 'none'; base-uri 'none'; object-src 'none'; form-action 'none'"
	if p.CSP != want {
		t.Errorf("CSP\n%s\nwant\n%s", p.CSP, want)
	}
	if p.Allow != "camera; clipboard-write" || len(p.Refused) != 7 {
		t.Errorf("allow %q, refused %q", p.Allow, p.Refused)
	}
	if d := buildAppPolicy(nil, nil); !strings.Contains(d.CSP, "connect-src 'none'") || d.Allow != "" {
		t.Errorf("default policy %+v", d)
	}
}

// Whatever a server declares, the policy keeps its fixed directives and
// adds only origins.
func FuzzAppPolicy(f *testing.F) {
	f.Add(`{"ui":{"csp":{"connectDomains":["https://a.test"],"resourceDomains":["https://*.b.test:443"]},"permissions":{"camera":{}}}}`)
	f.Add(`{"ui":{"csp":{"frameDomains":["*"," ;","http://[::1]:1"],"baseUriDomains":[1,null]}}}`)
	f.Add(`{"ui":"x"}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var meta map[string]any
		if json.Unmarshal([]byte(raw), &meta) != nil {
			return
		}
		p := buildAppPolicy(meta, []string{"127.0.0.1:1"})
		parts := strings.Split(p.CSP, "; ")
		if len(parts) != 11 || parts[0] != "default-src 'none'" || parts[9] != "object-src 'none'" || parts[10] != "form-action 'none'" {
			t.Fatalf("policy %q", p.CSP)
		}
		for _, part := range parts {
			for _, src := range strings.Fields(part)[1:] {
				if !cspSource.MatchString(src) && !strings.HasPrefix(src, "'") && src != "data:" {
					t.Fatalf("source %q in %q", src, p.CSP)
				}
				if strings.HasPrefix(src, "'") && src != "'none'" && src != "'unsafe-inline'" {
					t.Fatalf("keyword %q in %q", src, p.CSP)
				}
			}
		}
	})
}
