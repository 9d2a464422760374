package server

import (
	"crypto/rand"
	"net/http"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The session id goes out only on the response that carries the
// InitializeResult: a failed initialize gets no Mcp-Session-Id and leaves
// no session behind, with or without sealed ids, in either reply mode.
func TestFailedInitializeGetsNoSessionID(t *testing.T) {
	keys := [][]byte{[]byte(rand.Text() + rand.Text())[:SessionKeySize]}
	for _, tt := range []struct {
		name string
		opts *HTTPOptions
	}{
		{"event stream", nil},
		{"JSON", &HTTPOptions{JSONResponse: true}},
		{"sealed", &HTTPOptions{SessionKeys: keys}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hs := NewHTTPServer(t, NewDefault(nil), tt.opts)
			c := newHTTPClient(t, hs)
			resp := c.do(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, nil)
			if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
				t.Errorf("a failed initialize got Mcp-Session-Id %q", id)
			}
			asJSON := tt.opts != nil && tt.opts.JSONResponse
			r := responseTo(t, replyMessages(t, resp, asJSON, false), jsonrpc.Int64ID(1))
			if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
				t.Errorf("reply %#v, want -32602", r)
			}
			if ids := hs.Streamable.SessionIDs(); len(ids) != 0 {
				t.Errorf("sessions after a failed initialize: %v", ids)
			}
			// One that succeeds still gets its id.
			c.initialize("2025-06-18")
			if c.session == "" {
				t.Fatal("a successful initialize got no Mcp-Session-Id")
			}
			if resp, _ := c.post("ping", nil); resp.StatusCode != http.StatusOK {
				t.Errorf("ping in the session: %d", resp.StatusCode)
			}
		})
	}
}
