package inspect

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A call the server refuses with -32042 (URL elicitation required) shows
// the pages it asks the person to open, with secrets masked; a URL that
// is not http(s) is never handed to the page.
func TestCallURLElicitationRequired(t *testing.T) {
	const secret = "tok-0123456789"
	srv := mcptest.NewDefault(nil)
	srv.AddTool(mcptest.Tool{Name: "needs-consent"}, func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		data, _ := json.Marshal(map[string]any{"elicitations": []map[string]any{
			{"mode": "url", "message": "Approve access", "url": "https://auth.example.com/consent?k=" + secret, "elicitationId": "e1"},
			{"mode": "url", "message": "Run this", "url": "javascript:alert(1)", "elicitationId": "e2"},
		}})
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeURLElicitationRequired, Message: "This request requires consent.", Data: data}
	})
	p := newPageOn(t, srv, Options{Redact: func(s string) string { return strings.ReplaceAll(s, secret, "***") }})
	next := p.events(t)
	started := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"needs-consent","arguments":{}}`)
	rec, _ := waitCall(t, next, started.ID, nil)
	if rec.State != "failed" || !strings.Contains(rec.Error, "requires consent") {
		t.Fatalf("call: %+v", rec)
	}
	want := []pageToOpen{{Message: "Approve access", URL: "https://auth.example.com/consent?k=***"}}
	if len(rec.OpenFirst) != 1 || rec.OpenFirst[0] != want[0] {
		t.Errorf("pages to open: %+v, want %+v", rec.OpenFirst, want)
	}
}
