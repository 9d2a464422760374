package canned

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const testMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// TestModernResponder: the stateless server answers server/discover and
// requests that carry the era's _meta, and refuses the legacy era, so a
// client that falls back cannot pass for a modern one.
func TestModernResponder(t *testing.T) {
	r := NewModernResponder()
	for _, tc := range []struct {
		msg      string
		wantCode int    // 0: a result
		want     string // in the frame
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + testMeta + `}}`, 0, `"supportedVersions":["2026-07-28"]`},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + testMeta + `,"name":"echo","arguments":{}}}`, 0, `"text":"hello, world"}],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo"`},
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{` + testMeta + `,"name":"big","arguments":{"size":10}}}`, 0, `"resultType":"complete"`},
		{`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, -32022, `"requested":"2025-11-25"`},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo"}}`, -32602, `protocolVersion is required`},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`, -32022, `"supported":["2026-07-28"]`},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, -32602, `clientCapabilities is required`},
		{`{"jsonrpc":"2.0","id":8,"method":"ping","params":{` + testMeta + `}}`, -32601, `method not found`},
	} {
		rep := r.Answer([]byte(tc.msg))
		frame := string(rep.AppendFrame(nil))
		if !json.Valid([]byte(frame)) {
			t.Errorf("%s: invalid JSON %s", tc.msg, frame)
		}
		if rep.code != tc.wantCode || !strings.Contains(frame, tc.want) {
			t.Errorf("%s:\n got code %d, %s\nwant code %d with %s", tc.msg, rep.code, frame, tc.wantCode, tc.want)
		}
	}
	// The legacy responder still refuses server/discover, as servers of
	// 2025 do, and answers no _meta.
	rep := NewResponder().Answer([]byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + testMeta + `}}`))
	if rep.code != -32601 {
		t.Errorf("legacy server/discover: code %d, want -32601", rep.code)
	}
	if rep := NewResponder().Answer([]byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}}`)); bytes.Contains(rep.Result, []byte("_meta")) {
		t.Errorf("legacy result carries _meta: %s", rep.Result)
	}
}

// TestModernHeaders: over HTTP the stateless server wants the era's
// headers to repeat the body, and gives no session.
func TestModernHeaders(t *testing.T) {
	srv := httptest.NewServer(Handler(NewModernResponder(), false))
	defer srv.Close()
	echo := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + testMeta + `,"name":"echo","arguments":{}}}`
	full := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo"}
	for _, tc := range []struct {
		drop, change string
		status       int
		want         string
	}{
		{status: 200, want: `"text":"hello, world"`},
		{drop: "Mcp-Protocol-Version", status: 400, want: "Missing Mcp-Protocol-Version header"},
		{drop: "Mcp-Method", status: 400, want: "Missing Mcp-Method header"},
		{drop: "Mcp-Name", status: 400, want: "Missing Mcp-Name header"},
		{change: "Mcp-Name", status: 400, want: `Mcp-Name header value \"other\" does not match body value \"echo\"`},
		{change: "Mcp-Protocol-Version", status: 400, want: `-32020`},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(echo))
		for k, v := range full {
			switch k {
			case tc.drop:
				continue
			case tc.change:
				v = "other"
			}
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
			t.Errorf("drop %q change %q: HTTP %d %s; want %d with %s", tc.drop, tc.change, resp.StatusCode, body, tc.status, tc.want)
		}
		if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
			t.Errorf("the stateless server gave a session id %q", id)
		}
	}
}
