package inspect

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// Over HTTP each message the client sends shows the status of its
// exchange and the Mcp-* headers both ways, in both eras, and nothing of
// the configured headers, not even one whose name starts with Mcp-.
func TestWireHTTPExchanges(t *testing.T) {
	for _, era := range eras {
		t.Run(era.protocol, func(t *testing.T) {
			srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
			wire := NewWire(0, 0)
			const secret = "Bearer s3cret-header-value"
			tr := &transport.StreamableHTTP{URL: srv.URL, Headers: http.Header{"Authorization": {secret}, "X-Custom": {"custom-value"}, "mcp-api-key": {"mcp-named-secret"}}}
			c, err := mcp.Connect(t.Context(), transport.Record(wire.TapHTTP(tr, "web"), transport.NewRecorder(wire), "web"), &mcp.ClientOptions{ProtocolVersion: era.protocol})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := c.CallTool(t.Context(), "echo", json.RawMessage(`{"message":"hi"}`), nil); err != nil {
				t.Fatal(err)
			}
			var call *WireEntry
			for _, e := range wire.Entries() {
				if e.Method == "tools/call" && e.Kind == "request" {
					call = e
				}
				b, _ := json.Marshal(e)
				if strings.Contains(string(b), "s3cret") || strings.Contains(string(b), "custom-value") || strings.Contains(string(b), "mcp-named-secret") {
					t.Fatalf("a configured header's value shows: %s", b)
				}
			}
			if call == nil || call.HTTP == nil {
				t.Fatalf("the tools/call request has no exchange: %+v", call)
			}
			x := call.HTTP
			if x.Status != http.StatusOK || x.ContentType == "" || x.Request["Mcp-Protocol-Version"] != era.protocol {
				t.Fatalf("exchange %+v", x)
			}
			if era.protocol == mcp.ModernProtocolVersion && x.Request["Mcp-Method"] != "tools/call" {
				t.Errorf("the modern request's Mcp-Method: %+v", x.Request)
			}
			if era.protocol != mcp.ModernProtocolVersion {
				if x.Request["Mcp-Session-Id"] == "" {
					t.Errorf("no session id sent: %+v", x.Request)
				}
				for _, e := range wire.Entries() {
					if e.Method == "notifications/initialized" && (e.HTTP == nil || e.HTTP.Status != http.StatusAccepted) {
						t.Errorf("notifications/initialized: %+v", e.HTTP)
					}
				}
			}
		})
	}
}

// The requests that carry no message of the client's are on the timeline
// too: the GET of the listener stream and the DELETE that ends the
// session, each with its status and the session's Mcp-* headers, and
// neither in an export.
func TestWireHTTPListenerAndDelete(t *testing.T) {
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	wire := NewWire(0, 0)
	seen := make(chan *WireEntry, 100)
	wire.setNotify(func(e *WireEntry) {
		if e.Kind == "http" {
			seen <- e
		}
	})
	tr := &transport.StreamableHTTP{URL: srv.URL, Headers: http.Header{"Authorization": {"Bearer s3cret"}}}
	// The inspector's client declares what the server may ask (Hooks), so
	// it opens the listener at once.
	opts := &mcp.ClientOptions{ProtocolVersion: "2025-11-25"}
	NewHooks().Apply(opts)
	c, err := mcp.Connect(t.Context(), transport.Record(wire.TapHTTP(tr, "web"), transport.NewRecorder(wire), "web"), opts)
	if err != nil {
		t.Fatal(err)
	}
	var get *WireEntry
	select {
	case get = <-seen: // the listener stream opens after the handshake
	case <-time.After(5 * time.Second):
		for _, e := range wire.Entries() {
			t.Logf("%s %s %+v", e.Method, e.Kind, e.HTTP)
		}
		t.Fatal("no GET")
	}
	var session string // as the client sent it with its other requests
	for _, e := range wire.Entries() {
		if e.Method == "notifications/initialized" && e.HTTP != nil {
			session = e.HTTP.Request["Mcp-Session-Id"]
		}
	}
	c.Close()
	var del *WireEntry
	select {
	case del = <-seen:
	case <-time.After(5 * time.Second):
		t.Fatal("no DELETE after Close")
	}
	if get.Method != "GET (listener stream)" || get.HTTP == nil || get.HTTP.Status != http.StatusOK || get.HTTP.Request["Mcp-Session-Id"] != session || session == "" {
		t.Errorf("GET exchange %+v %+v (session %q)", get, get.HTTP, session)
	}
	if del.Method != "DELETE (session end)" || del.HTTP == nil || del.HTTP.Status == 0 || del.HTTP.Request["Mcp-Session-Id"] != session {
		t.Errorf("DELETE exchange %+v %+v", del, del.HTTP)
	}
	var out strings.Builder
	if err := wire.Export(&out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "listener stream") || strings.Contains(out.String(), "s3cret") {
		t.Errorf("the export holds an HTTP exchange or a secret: %s", out.String())
	}
}
