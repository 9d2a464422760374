package transport

import (
	"context"
	"net/http"
	"runtime"
	"testing"
	"time"
)

// Streams of equal plain configurations share one endpoint (snapshot,
// URL, POST header), yet each POST carries its own session's id; any
// difference, or a header, hook or client, gives a stream its own.
func TestHTTPPlainConfigsShareEndpoint(t *testing.T) {
	srv := newHTTPScript(t)
	plain := func() *StreamableHTTP { return &StreamableHTTP{URL: srv.URL(), DisableListener: true} }
	a := httpConnect(t, plain())
	edited := plain()
	b := httpConnect(t, edited)
	if a.ep != b.ep {
		t.Error("two streams of equal plain configurations have an endpoint each")
	}
	edited.URL, edited.MaxBodySize = "http://127.0.0.1:9/other", 7
	if b.ep.cfg.URL != srv.URL() || b.ep.maxBody != DefaultMaxBodySize {
		t.Errorf("an edit after Connect reached the stream: %q, %d", b.ep.cfg.URL, b.ep.maxBody)
	}
	for name, edit := range map[string]func(*StreamableHTTP){
		"MaxBodySize": func(c *StreamableHTTP) { c.MaxBodySize = 1 << 20 },
		"Headers":     func(c *StreamableHTTP) { c.Headers = http.Header{"X-A": {"1"}} },
		"ErrorHook":   func(c *StreamableHTTP) { c.ErrorHook = func(error) {} },
		"HTTPClient":  func(c *StreamableHTTP) { c.HTTPClient = &http.Client{} },
	} {
		c := plain()
		edit(c)
		if s := httpConnect(t, c); s.ep == a.ep {
			t.Errorf("a configuration that differs in %s shares the endpoint", name)
		}
	}
	c1, c2 := plain(), plain()
	c1.Headers, c2.Headers = http.Header{"X-A": {"1"}}, http.Header{"X-A": {"1"}}
	if httpConnect(t, c1).ep == httpConnect(t, c2).ep {
		t.Error("configurations with headers share an endpoint (a map cannot be compared)")
	}

	httpHandshake(t, srv, a, "sess-a")
	httpHandshake(t, srv, b, "sess-b")
	for _, tc := range []struct {
		s   *httpStream
		sid string
	}{{a, "sess-a"}, {b, "sess-b"}, {a, "sess-a"}} {
		step := srv.on("tools/list", httpIsPOST("tools/list"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{"tools":[]}}`))
		httpWrite(t, tc.s, httpRequest(t, 2, "tools/list", nil))
		httpReadResponse(t, tc.s, 2)
		r := httpWaitHit(t, step)
		httpAssertHeader(t, r, "Mcp-Session-Id", tc.sid)
		httpAssertHeader(t, r, "MCP-Protocol-Version", "2025-11-25")
		httpAssertHeader(t, r, "Accept", "application/json, text/event-stream")
	}
	if got := a.ep.postBase.Get("Mcp-Session-Id"); got != "" || len(a.ep.postBase) != 4 {
		t.Errorf("the shared POST header was written to: %v", a.ep.postBase)
	}
}

// Once no stream holds a shared endpoint, it is freed and its entry goes.
func TestHTTPSharedEndpointDropped(t *testing.T) {
	srv := newHTTPScript(t)
	cfg := &StreamableHTTP{URL: srv.URL(), DisableListener: true}
	key, plain := plainKey(cfg)
	if !plain {
		t.Fatal("a configuration with only a URL is not plain")
	}
	func() {
		st, err := cfg.Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
	}()
	if !sharedEndpoints.Has(key) {
		t.Fatal("the endpoint was not recorded")
	}
	// The cleanup runs after a collection, on the runtime's goroutine:
	// there is no event to wait on, so the condition is polled.
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if !sharedEndpoints.Has(key) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the entry of an endpoint no stream holds is still there after 10 s")
		}
		runtime.Gosched()
	}
}
