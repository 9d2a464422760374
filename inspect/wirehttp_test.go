package inspect

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// Over HTTP each message the client sends shows the status of its
// exchange and the Mcp-* headers both ways, in both eras, and nothing of
// the configured headers.
func TestWireHTTPExchanges(t *testing.T) {
	for _, era := range eras {
		t.Run(era.protocol, func(t *testing.T) {
			srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
			wire := NewWire(0, 0)
			const secret = "Bearer s3cret-header-value"
			tr := &transport.StreamableHTTP{URL: srv.URL, Headers: http.Header{"Authorization": {secret}, "X-Custom": {"custom-value"}}}
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
				if strings.Contains(string(b), "s3cret") || strings.Contains(string(b), "custom-value") {
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
