package gateway

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// HTTPOptions.MaxSessions reaches both transports' handlers: past it, a
// new session is refused with 503 saying why.
func TestHTTPMaxSessions(t *testing.T) {
	g := newGateway(t, map[string]*server.Server{"up": server.NewDefault(nil)}, nil)
	web := httptest.NewServer(g.Handler(&HTTPOptions{MaxSessions: 1, LegacySSE: true}))
	t.Cleanup(web.Close)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	if status, sid, body := postAs(t, web.URL+"/mcp", "", "", initialize); status != http.StatusOK || sid == "" {
		t.Fatalf("first initialize: %d %s", status, body)
	}
	status, sid, body := postAs(t, web.URL+"/mcp", "", "", initialize)
	if status != http.StatusServiceUnavailable || sid != "" || !strings.Contains(body, "too many sessions") {
		t.Fatalf("second initialize: %d, session %q, %s; want 503 saying too many sessions", status, sid, body)
	}
	// The legacy transport's own cap: one stream open, the next refused.
	first, err := http.Get(web.URL + "/sse")
	if err != nil || first.StatusCode != http.StatusOK {
		t.Fatalf("first /sse: %v %v", first, err)
	}
	defer first.Body.Close()
	second, err := http.Get(web.URL + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	second.Body.Close()
	if second.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("second /sse: %d, want 503", second.StatusCode)
	}
}

// HTTPOptions.MaxStatelessRequests reaches the core: a 2026-07-28 host's
// call past it is refused with the busy error at once and never reaches
// the upstream, and once the held call ends the next one runs.
func TestHTTPMaxStatelessRequests(t *testing.T) {
	up, started, release := blockingUpstream()
	g := newGateway(t, map[string]*server.Server{"up": up}, nil)
	web := httptest.NewServer(g.Handler(&HTTPOptions{MaxStatelessRequests: 1}))
	t.Cleanup(web.Close)
	c, err := mcp.Connect(t.Context(), &transport.StreamableHTTP{URL: web.URL + "/mcp"}, &mcp.ClientOptions{ProtocolVersion: mcp.ModernProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	wantBusyPastBound(t, c, started, release, "server busy: 1 stateless request already in flight at this endpoint")
	if _, err := c.CallTool(t.Context(), "up__block", nil, nil); err != nil {
		t.Fatalf("a call once the first ended: %v", err)
	}
}
