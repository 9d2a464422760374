package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// errorReply decodes an error body and returns the whole response, id
// included.
func errorReply(t *testing.T, resp *http.Response) *jsonrpc.Response {
	t.Helper()
	body := readAll(resp)
	m, err := jsonrpc.DecodeMessage([]byte(body))
	r, ok := m.(*jsonrpc.Response)
	if err != nil || !ok || r.Error == nil {
		t.Fatalf("body %q is not an error response (%v)", body, err)
	}
	return r
}

// In a session the MCP-Protocol-Version header must name the version the
// session negotiated; a missing one is served.
func TestVersionHeaderAgainstSession(t *testing.T) {
	hs := NewHTTPServer(t, NewDefault(nil), nil)
	c := newHTTPClient(t, hs)
	c.initialize("2025-06-18")
	ping, id := c.requestBody("ping", nil)
	for _, tt := range []struct {
		header string
		want   []string
	}{
		{"2025-03-26", []string{"header 2025-03-26", "protocol version 2025-06-18"}},
		{"2026-07-28", []string{"header 2026-07-28", "protocol version 2025-06-18"}},
		{"banana", []string{"Unsupported protocol version: banana", "2025-06-18"}},
	} {
		resp := c.do(http.MethodPost, ping, map[string]string{"MCP-Protocol-Version": tt.header})
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("header %s: status %d, want 400", tt.header, resp.StatusCode)
			continue
		}
		r := errorReply(t, resp)
		if r.ID != id {
			t.Errorf("header %s: error for id %s, want the request's %s", tt.header, r.ID, id)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.Error.Message, w) {
				t.Errorf("header %s: %q does not say %q", tt.header, r.Error.Message, w)
			}
		}
	}
	get := c.do(http.MethodGet, "", map[string]string{"MCP-Protocol-Version": "2025-03-26"})
	if get.StatusCode != http.StatusBadRequest {
		t.Errorf("GET with another version: %d, want 400", get.StatusCode)
	}
	for _, header := range []string{"", "2025-06-18"} {
		if resp := c.do(http.MethodPost, ping, map[string]string{"MCP-Protocol-Version": header}); resp.StatusCode != http.StatusOK {
			t.Errorf("header %q: status %d, want 200", header, resp.StatusCode)
		}
	}
}

// Without a session, a header naming no version the server speaks is 400
// saying so, listing the versions it does.
func TestVersionHeaderUnsupported(t *testing.T) {
	for _, tt := range []struct {
		eras Eras
		list string
	}{
		{BothEras, "(supported: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28)"},
		{LegacyOnly, "(supported: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25)"},
	} {
		c := newHTTPClient(t, NewHTTPServer(t, NewDefault(&Options{Eras: tt.eras}), nil))
		resp := c.do(http.MethodPost, `{"jsonrpc":"2.0","id":7,"method":"ping"}`, map[string]string{"MCP-Protocol-Version": "banana"})
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("%v: status %d, want 400", tt.eras, resp.StatusCode)
		}
		r := errorReply(t, resp)
		if want := "Unsupported protocol version: banana " + tt.list; !strings.Contains(r.Error.Message, want) || r.ID != jsonrpc.Int64ID(7) {
			t.Errorf("%v: %v for id %s, want %q for id 7", tt.eras, r.Error, r.ID, want)
		}
	}
}

// The 2026-07-28 requests keep their own rules: a header that differs
// from _meta is -32020, a version of _meta and header the server does
// not speak -32022.
func TestVersionHeaderModernRulesKept(t *testing.T) {
	c := newHTTPClient(t, NewHTTPServer(t, NewDefault(nil), nil))
	list := func(version string) string {
		return `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"` + MetaProtocolVersion + `":"` + version + `","` + MetaClientCapabilities + `":{}}}}`
	}
	for _, tt := range []struct {
		name, header, body string
		code               int64
	}{
		{"modern header, no _meta", ModernProtocolVersion, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, CodeHeaderMismatch},
		{"unknown header, modern _meta", "banana", list(ModernProtocolVersion), CodeHeaderMismatch},
		{"unknown header and _meta", "banana", list("banana"), CodeUnsupportedProtocolVersion},
	} {
		resp := c.do(http.MethodPost, tt.body, map[string]string{"MCP-Protocol-Version": tt.header, "Mcp-Method": "tools/list"})
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", tt.name, resp.StatusCode)
			continue
		}
		if r := errorReply(t, resp); r.Error.Code != tt.code || r.ID != jsonrpc.Int64ID(3) {
			t.Errorf("%s: %v for id %s, want %d for id 3", tt.name, r.Error, r.ID, tt.code)
		}
	}
}
