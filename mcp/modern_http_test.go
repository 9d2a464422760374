package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

func connectModernHTTP(t *testing.T, srv *mcptest.Server) (*Client, *mcptest.HTTPServer) {
	t.Helper()
	hs := mcptest.NewHTTPServer(t, srv, nil)
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL}, modernPin)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, hs
}

// Over Streamable HTTP the stateless era has its own wire rules: every
// POST names its version, method and (for calls, gets and reads) its
// target in headers; no session, no GET listener, no DELETE.
func TestModernPinnedHTTP(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c, hs := connectModernHTTP(t, srv)
	exerciseModern(t, c, srv.ModernRequests)
	if _, err := c.ReadResource(t.Context(), mcptest.HelloURI); err != nil {
		t.Fatalf("ReadResource: %v", err)
	}
	c.Close()
	named := 0
	for _, r := range hs.Requests() {
		if r.Method != http.MethodPost {
			t.Errorf("%s %s: the stateless era only POSTs", r.Method, r.Path)
			continue
		}
		var body struct {
			Method string
			Params struct{ Name, URI string }
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("body %s: %v", r.Body, err)
		}
		if got := r.Header.Get("MCP-Protocol-Version"); got != ModernProtocolVersion {
			t.Errorf("%s: MCP-Protocol-Version %q", body.Method, got)
		}
		if got := r.Header.Get("Mcp-Method"); got != body.Method {
			t.Errorf("%s: Mcp-Method %q", body.Method, got)
		}
		if r.Header.Get("Mcp-Session-Id") != "" || r.Header.Get("Last-Event-ID") != "" {
			t.Errorf("%s carried session headers: %v", body.Method, r.Header)
		}
		if name := r.Header.Get("Mcp-Name"); name != "" {
			named++
			if name != body.Params.Name+body.Params.URI {
				t.Errorf("%s: Mcp-Name %q", body.Method, name)
			}
		}
		if r.Status >= 300 { // 0: not answered when the log was read
			t.Errorf("%s answered %d", body.Method, r.Status)
		}
	}
	if named != 2 {
		t.Errorf("%d requests carried Mcp-Name, want 2 (tools/call, resources/read)", named)
	}
}

// A cancelled call closes its reply stream, the stateless era's cancel,
// instead of posting notifications/cancelled.
func TestModernHTTPCancelClosesStream(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c, hs := connectModernHTTP(t, srv)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	_, err := c.CallTool(ctx, "slow", map[string]any{"steps": 100000, "delay_ms": 20}, &CallOptions{
		OnProgress: func(context.Context, ProgressNotification) { cancel() },
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("CallTool: %v, want context.Canceled", err)
	}
	i := slices.IndexFunc(srv.ModernRequests(), func(r mcptest.ModernRequest) bool { return r.Method == "tools/call" })
	if err := hs.Streamable.WaitCancelledByClose(t.Context(), srv.ModernRequests()[i].ID); err != nil {
		t.Fatal(err)
	}
	for _, r := range hs.Requests() {
		if strings.Contains(string(r.Body), "notifications/cancelled") {
			t.Errorf("posted %s", r.Body)
		}
	}
}

// A broken reply stream cannot be resumed in the stateless era: the call
// fails in-band and says why, and no GET goes out.
func TestModernHTTPBrokenStream(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c, hs := connectModernHTTP(t, srv)
	hs.Streamable.CutNextStream("slow")
	_, err := c.CallTool(t.Context(), "slow", map[string]any{"steps": 2, "delay_ms": 1}, nil)
	if err == nil || !strings.Contains(err.Error(), "cannot resume") || !strings.Contains(err.Error(), "not sent again") {
		t.Fatalf("CallTool over a broken stream: %v", err)
	}
	for _, r := range hs.Requests() {
		if r.Method != http.MethodPost {
			t.Errorf("%s %s after a broken stream", r.Method, r.Path)
		}
	}
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatalf("the client is unusable after a broken stream: %v", err)
	}
}

// A safe request whose reply stream broke is sent again with a new id, and
// its answer reaches the caller as the answer to the original.
func TestModernHTTPBrokenStreamReissued(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	c, hs := connectModernHTTP(t, srv)
	hs.Streamable.CutNextStream("tools/list")
	tools, err := c.ListTools(t.Context())
	if err != nil || len(tools) == 0 {
		t.Fatalf("ListTools over a broken stream: %d tools, %v", len(tools), err)
	}
	var ids []string
	for _, r := range hs.Requests() {
		var body struct {
			ID     json.RawMessage
			Method string
		}
		_ = json.Unmarshal(r.Body, &body)
		if body.Method == "tools/list" {
			ids = append(ids, string(body.ID))
		}
	}
	if len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("tools/list was posted with ids %q, want twice with different ids", ids)
	}
	if _, err := c.CallTool(t.Context(), "add", map[string]any{"a": 1, "b": 1}, nil); err != nil {
		t.Fatalf("the client is unusable after a re-issue: %v", err)
	}
}

// dropHeader is an HTTP client that loses one request header on the way,
// as a misconfigured proxy would.
type dropHeader struct{ name string }

func (d dropHeader) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Del(d.name)
	return http.DefaultTransport.RoundTrip(r)
}

// A -32020 HeaderMismatch is reported naming the header.
func TestModernHTTPHeaderMismatchNamed(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	hs := mcptest.NewHTTPServer(t, srv, nil)
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: hs.URL, HTTPClient: &http.Client{Transport: dropHeader{"Mcp-Name"}}}, modernPin)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, err = c.CallTool(t.Context(), "add", map[string]any{"a": 1, "b": 1}, nil)
	if code, _ := jsonrpc.ErrorCode(err); code != CodeHeaderMismatch || !strings.Contains(err.Error(), "refused the header Mcp-Name of the request") {
		t.Fatalf("CallTool without Mcp-Name: %v", err)
	}
}

// The automatic transport (Streamable HTTP, else legacy SSE) learns the
// era before its first request and stays on Streamable HTTP.
func TestModernPinnedAutoTransport(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
	hs := mcptest.NewHTTPServer(t, srv, nil)
	c, err := Connect(t.Context(), &transport.Auto{URL: hs.URL}, modernPin)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	if c.ProtocolVersion() != ModernProtocolVersion {
		t.Errorf("ProtocolVersion %q", c.ProtocolVersion())
	}
}
