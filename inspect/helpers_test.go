package inspect

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// streamTransport hands out one already connected stream.
type streamTransport struct{ s jsonrpc.Stream }

func (t streamTransport) Connect(context.Context) (jsonrpc.Stream, error) { return t.s, nil }

// page is an inspector over the example server, served on loopback, and
// a browser-like client that has made the first visit with the token.
type page struct {
	srv    *Server
	ts     *httptest.Server
	base   string // the page's URL without its trailing slash
	token  string
	client *http.Client
	wire   *Wire
}

func newPage(t *testing.T, secrets ...string) *page {
	t.Helper()
	return newPageWith(t, Options{}, secrets...)
}

// newPageWith is newPage with opts' Hosts, Redact and stderr tail (its
// Servers, Wire and Token are the page's own).
func newPageWith(t *testing.T, opts Options, secrets ...string) *page {
	t.Helper()
	return newPageClient(t, opts, nil, secrets...)
}

// newPageClient is newPageWith whose client is connected with copts
// (nil: the defaults), and opts.Hooks' handlers when given.
func newPageClient(t *testing.T, opts Options, copts *mcp.ClientOptions, secrets ...string) *page {
	t.Helper()
	return newPageServer(t, mcptest.NewDefault(nil), opts, copts, secrets...)
}

// newPageOn is newPageWith over the server srv.
func newPageOn(t *testing.T, srv *mcptest.Server, opts Options, secrets ...string) *page {
	t.Helper()
	return newPageServer(t, srv, opts, nil, secrets...)
}

// newPageServer is newPageClient over srv.
func newPageServer(t *testing.T, srv *mcptest.Server, opts Options, copts *mcp.ClientOptions, secrets ...string) *page {
	t.Helper()
	stream, _ := mcptest.Connect(t, srv)
	wire := NewWire(0, 0)
	rec := transport.NewRecorder(wire)
	rec.AddSecrets(secrets...)
	if opts.Hooks != nil {
		if copts == nil {
			copts = &mcp.ClientOptions{}
		}
		copts.ServerName = "demo"
		opts.Hooks.Apply(copts)
	}
	c, err := mcp.Connect(t.Context(), transport.Record(streamTransport{stream}, rec, "demo"), copts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	opts.Servers = OneServer("demo", "stdio", []string{"--", "demo-server"}, c, func() string { return "the server said: " + strings.Join(secrets, " ") }, nil)
	opts.Wire = wire
	return openPage(t, opts)
}

// openPage serves an inspector for opts (its Token is made here) on
// loopback and makes the first visit with the token.
func openPage(t *testing.T, opts Options) *page {
	t.Helper()
	p := &page{token: NewToken(), wire: opts.Wire}
	opts.Token = p.token
	var err error
	p.srv, err = New(opts)
	if err != nil {
		t.Fatal(err)
	}
	p.ts = httptest.NewServer(p.srv)
	t.Cleanup(func() { p.srv.Close(); p.ts.Close() })
	p.base = p.ts.URL + strings.TrimSuffix(p.srv.Path(), "/")
	jar, _ := cookiejar.New(nil)
	p.client = &http.Client{Jar: jar}
	resp, err := p.client.Get(p.base + "/?token=" + url.QueryEscape(p.token))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("first visit with the token: %s", resp.Status)
	}
	return p
}

// do sends a request as the page would (same origin for POSTs); path is
// under the page's own (p.base).
func (p *page) do(t *testing.T, method, path, body string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, p.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", p.ts.URL)
	}
	for k, v := range header {
		if k == "Host" {
			// The jar picks cookies by Host; the cookie still goes, as a
			// rebinding page's request would carry it.
			req.Host = v
			for _, c := range p.client.Jar.Cookies(req.URL) {
				req.AddCookie(c)
			}
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// events opens the event stream and returns a function that reads the
// next event.
func (p *page) events(t *testing.T) func() sse.Event {
	t.Helper()
	resp := p.do(t, http.MethodGet, "/api/events", "", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %s", resp.Status)
	}
	r := sse.NewReader(bufio.NewReader(resp.Body))
	return func() sse.Event {
		t.Helper()
		e, err := r.Next()
		if err != nil {
			t.Fatalf("reading events: %v", err)
		}
		return e
	}
}

// waitCall reads events until call id reaches a state other than
// running, and returns it; the wire entries seen on the way are kept.
func waitCall(t *testing.T, next func() sse.Event, id int64, onRunning func(callRecord)) (callRecord, []WireEntry) {
	t.Helper()
	var wire []WireEntry
	for {
		e := next()
		switch e.Type {
		case "wire":
			var w WireEntry
			if err := json.Unmarshal(e.Data, &w); err != nil {
				t.Fatal(err)
			}
			wire = append(wire, w)
		case "wire-reset":
			var ws []WireEntry
			if err := json.Unmarshal(e.Data, &ws); err != nil {
				t.Fatal(err)
			}
			wire = append(wire, ws...)
		case "call":
			var c callRecord
			if err := json.Unmarshal(e.Data, &c); err != nil {
				t.Fatal(err)
			}
			if c.ID != id {
				continue
			}
			if c.State != "running" {
				return c, wire
			}
			if onRunning != nil {
				onRunning(c)
			}
		}
	}
}

// resultOf decodes call rec's result (nil when it has none).
func resultOf(t *testing.T, rec callRecord) *mcp.CallToolResult {
	t.Helper()
	if rec.Result == nil {
		return nil
	}
	var res mcp.CallToolResult
	if err := json.Unmarshal(rec.Result, &res); err != nil {
		t.Fatalf("call %d's result: %v in %s", rec.ID, err, rec.Result)
	}
	return &res
}
