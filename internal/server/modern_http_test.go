package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// modernPost sends a modern request with the headers the revision wants
// (MCP-Protocol-Version, Mcp-Method, Mcp-Name from params' name or uri);
// hdr overrides them, an empty value removing one.
func (c *httpClient) modernPost(method string, params map[string]any, hdr map[string]string) (*http.Response, jsonrpc.ID) {
	c.t.Helper()
	if _, ok := params["_meta"]; !ok {
		params = withMeta(params, modernMeta(nil))
	}
	body, id := c.requestBody(method, params)
	h := map[string]string{"MCP-Protocol-Version": ModernProtocolVersion, "Mcp-Method": method}
	for _, key := range []string{"name", "uri"} {
		if v, ok := params[key].(string); ok {
			h["Mcp-Name"] = v
		}
	}
	for k, v := range hdr {
		h[k] = v
	}
	return c.do(http.MethodPost, body, h), id
}

// modernResponse reads the one response of a modern reply (SSE or JSON).
func modernResponse(t *testing.T, resp *http.Response, id jsonrpc.ID) *jsonrpc.Response {
	t.Helper()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		m, err := jsonrpc.DecodeMessage([]byte(readAll(resp)))
		if err != nil {
			t.Fatal(err)
		}
		return m.(*jsonrpc.Response)
	}
	return responseTo(t, messages(t, allEvents(t, resp)), id)
}

func TestModernHTTPDiscover(t *testing.T) {
	hs := NewHTTPServer(t, NewDefault(nil), nil)
	c := newHTTPClient(t, hs)
	resp, id := c.modernPost("server/discover", map[string]any{}, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, readAll(resp))
	}
	if sid := resp.Header.Get("Mcp-Session-Id"); sid != "" {
		t.Errorf("a modern reply carries Mcp-Session-Id %q", sid)
	}
	r := modernResponse(t, resp, id)
	if r.Error != nil || decodeModern(t, r.Result).ResultType != "complete" {
		t.Fatalf("discover: %v %s", r.Error, r.Result)
	}
	if ids := hs.Streamable.SessionIDs(); len(ids) != 0 {
		t.Errorf("sessions kept after a modern request: %v", ids)
	}
	reqs := hs.Streamable.Requests()
	if got := reqs[len(reqs)-1].Header.Get("Mcp-Method"); got != "server/discover" {
		t.Errorf("recorded Mcp-Method %q", got)
	}
}

func TestModernHTTPHeaderRules(t *testing.T) {
	hs := NewHTTPServer(t, NewDefault(nil), nil)
	c := newHTTPClient(t, hs)
	echo := map[string]any{"name": "echo", "arguments": map[string]string{"message": "hi"}}
	otherVersion := modernMeta(nil)
	otherVersion[MetaProtocolVersion] = "2099-01-01"
	for _, tc := range []struct {
		name    string
		method  string
		params  map[string]any
		hdr     map[string]string
		status  int
		code    int64
		mention string
	}{
		{"no version header", "tools/list", map[string]any{}, map[string]string{"MCP-Protocol-Version": ""}, 400, CodeHeaderMismatch, "MCP-Protocol-Version"},
		{"version header differs from _meta", "tools/list", map[string]any{}, map[string]string{"MCP-Protocol-Version": "2099-01-01"}, 400, CodeHeaderMismatch, "MCP-Protocol-Version"},
		{"unsupported version", "tools/list", map[string]any{"_meta": otherVersion}, map[string]string{"MCP-Protocol-Version": "2099-01-01"}, 400, CodeUnsupportedProtocolVersion, "2099-01-01"},
		{"no Mcp-Method", "tools/list", map[string]any{}, map[string]string{"Mcp-Method": ""}, 400, CodeHeaderMismatch, "Mcp-Method"},
		{"Mcp-Method differs", "tools/list", map[string]any{}, map[string]string{"Mcp-Method": "prompts/list"}, 400, CodeHeaderMismatch, "Mcp-Method"},
		{"no Mcp-Name", "tools/call", echo, map[string]string{"Mcp-Name": ""}, 400, CodeHeaderMismatch, "Mcp-Name"},
		{"Mcp-Name differs", "tools/call", echo, map[string]string{"Mcp-Name": "add"}, 400, CodeHeaderMismatch, "Mcp-Name"},
		{"Mcp-Name not ASCII", "tools/call", echo, map[string]string{"Mcp-Name": "ech\u00f6"}, 400, CodeHeaderMismatch, "Mcp-Name"},
		{"Mcp-Name of resources/read", "resources/read", map[string]any{"uri": "mcptest://static/readme"}, map[string]string{"Mcp-Name": "mcptest://other"}, 400, CodeHeaderMismatch, "Mcp-Name"},
		{"unknown method", "ping", map[string]any{}, nil, 404, jsonrpc.CodeMethodNotFound, "ping"},
		{"base64 Mcp-Name", "tools/call", echo, map[string]string{"Mcp-Name": "=?base64?ZWNobw==?="}, 200, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, id := c.modernPost(tc.method, tc.params, tc.hdr)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, readAll(resp))
			}
			if tc.status == 200 {
				if r := modernResponse(t, resp, id); r.Error != nil {
					t.Errorf("error %v", r.Error)
				}
				return
			}
			e := jsonrpcErrorBody(t, resp)
			if e.Code != tc.code || !strings.Contains(e.Message, tc.mention) {
				t.Errorf("error %v, want code %d naming %q", e, tc.code, tc.mention)
			}
		})
	}
}

func TestModernHTTPParamHeaders(t *testing.T) {
	srv := NewServer(nil)
	srv.AddTool(Tool{Name: "query", InputSchema: json.RawMessage(`{"type":"object","properties":{
		"region":{"type":"string","x-mcp-header":"Region"},
		"limit":{"type":"integer","x-mcp-header":"Limit"},
		"target":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}},
		"query":{"type":"string"}}}`)}, func(context.Context, *ToolRequest) (*ToolResult, error) { return TextResult("ok"), nil })
	hs := NewHTTPServer(t, srv, nil)
	c := newHTTPClient(t, hs)
	call := func(args map[string]any, hdr map[string]string) (*http.Response, jsonrpc.ID) {
		return c.modernPost("tools/call", map[string]any{"name": "query", "arguments": args}, hdr)
	}
	ok := func(name string, args map[string]any, hdr map[string]string) {
		t.Helper()
		resp, id := call(args, hdr)
		if resp.StatusCode != 200 {
			t.Errorf("%s: status %d: %s", name, resp.StatusCode, readAll(resp))
			return
		}
		if r := modernResponse(t, resp, id); r.Error != nil {
			t.Errorf("%s: %v", name, r.Error)
		}
	}
	bad := func(name string, args map[string]any, hdr map[string]string, mention string) {
		t.Helper()
		resp, _ := call(args, hdr)
		if resp.StatusCode != 400 {
			t.Errorf("%s: status %d, want 400: %s", name, resp.StatusCode, readAll(resp))
			return
		}
		if e := jsonrpcErrorBody(t, resp); e.Code != CodeHeaderMismatch || !strings.Contains(e.Message, mention) {
			t.Errorf("%s: %v, want -32020 naming %s", name, e, mention)
		}
	}
	ok("all mirrored", map[string]any{"region": "us-west1", "limit": 42, "target": map[string]any{"zone": "b"}, "query": "x"},
		map[string]string{"Mcp-Param-Region": "us-west1", "Mcp-Param-Limit": "42", "Mcp-Param-Zone": "b"})
	ok("absent and null values need no header", map[string]any{"region": nil, "query": "x"}, nil)
	ok("integers compare as numbers", map[string]any{"limit": 42}, map[string]string{"Mcp-Param-Limit": "42.0"})
	ok("non-ASCII in base64", map[string]any{"region": "Hello, 世界"}, map[string]string{"Mcp-Param-Region": "=?base64?SGVsbG8sIOS4lueVjA==?="})
	bad("missing header", map[string]any{"region": "us-west1"}, nil, "Mcp-Param-Region")
	bad("missing nested header", map[string]any{"target": map[string]any{"zone": "b"}}, nil, "Mcp-Param-Zone")
	bad("different value", map[string]any{"region": "us-west1"}, map[string]string{"Mcp-Param-Region": "eu-west1"}, "Mcp-Param-Region")
	bad("header without a value", map[string]any{}, map[string]string{"Mcp-Param-Region": "us-west1"}, "Mcp-Param-Region")
	bad("raw non-ASCII", map[string]any{"region": "é"}, map[string]string{"Mcp-Param-Region": "é"}, "Mcp-Param-Region")
	bad("broken base64", map[string]any{"region": "x"}, map[string]string{"Mcp-Param-Region": "=?base64?***?="}, "Mcp-Param-Region")
}

func TestModernHTTPEras(t *testing.T) {
	t.Run("modern only", func(t *testing.T) {
		hs := NewHTTPServer(t, NewDefault(&Options{Eras: ModernOnly}), nil)
		c := newHTTPClient(t, hs)
		for _, method := range []string{http.MethodGet, http.MethodDelete} {
			if resp := c.do(method, "", nil); resp.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s: status %d, want 405", method, resp.StatusCode)
			}
		}
		// A legacy client's initialize lacks the revision's headers.
		resp, _ := c.post("initialize", map[string]any{"protocolVersion": LatestProtocolVersion, "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "x", "version": "1"}})
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("initialize: status %d", resp.StatusCode)
		}
		if e := jsonrpcErrorBody(t, resp); e.Code != CodeHeaderMismatch || !strings.Contains(e.Message, "MCP-Protocol-Version") {
			t.Errorf("initialize: %v", e)
		}
		if resp.Header.Get("Mcp-Session-Id") != "" {
			t.Error("initialize got a session id")
		}
	})
	t.Run("legacy only", func(t *testing.T) {
		hs := NewHTTPServer(t, NewDefault(&Options{Eras: LegacyOnly}), nil)
		c := newHTTPClient(t, hs)
		resp, _ := c.modernPost("server/discover", map[string]any{}, nil)
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("status %d, want 400", resp.StatusCode)
		}
		if e := jsonrpcErrorBody(t, resp); e.Code != -32000 || !strings.Contains(e.Message, "Unsupported protocol version") {
			t.Errorf("legacy answer changed: %v", e)
		}
	})
	t.Run("both serve a legacy session beside modern requests", func(t *testing.T) {
		hs := NewHTTPServer(t, NewDefault(nil), nil)
		legacy := newHTTPClient(t, hs)
		legacy.initialize(LatestProtocolVersion)
		if legacy.session == "" {
			t.Fatal("no session id for the legacy client")
		}
		modern := newHTTPClient(t, hs)
		resp, id := modern.modernPost("tools/list", map[string]any{}, nil)
		if r := modernResponse(t, resp, id); r.Error != nil || decodeModern(t, r.Result).ResultType != "complete" {
			t.Errorf("modern tools/list: %v %s", r.Error, r.Result)
		}
		resp, id = legacy.post("tools/list", nil)
		if r := modernResponse(t, resp, id); r.Error != nil || strings.Contains(string(r.Result), "resultType") {
			t.Errorf("legacy tools/list: %v %s", r.Error, r.Result)
		}
		// A GET or DELETE naming the modern revision is one that revision
		// does not have (405), not an older session missing its id (400).
		for _, method := range []string{http.MethodGet, http.MethodDelete} {
			got := modern.do(method, "", map[string]string{"MCP-Protocol-Version": ModernProtocolVersion})
			if got.StatusCode != http.StatusMethodNotAllowed || got.Header.Get("Allow") != "POST" {
				t.Errorf("modern %s: status %d, Allow %q; want 405, POST", method, got.StatusCode, got.Header.Get("Allow"))
			}
			got = modern.do(method, "", map[string]string{"MCP-Protocol-Version": LatestProtocolVersion})
			if got.StatusCode != http.StatusBadRequest {
				t.Errorf("%s of %s without a session: status %d, want 400", method, LatestProtocolVersion, got.StatusCode)
			}
		}
	})
}

func TestModernHTTPInputRequired(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		t.Run(map[bool]string{false: "sse", true: "json"}[asJSON], func(t *testing.T) {
			hs := NewHTTPServer(t, NewDefault(nil), &HTTPOptions{JSONResponse: asJSON})
			c := newHTTPClient(t, hs)
			params := map[string]any{"name": "elicit", "arguments": map[string]any{}}
			resp, id := c.modernPost("tools/call", withMeta(params, modernMeta(elicitCaps)), nil)
			if wantJSON := asJSON; strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") != wantJSON {
				t.Errorf("Content-Type %q", resp.Header.Get("Content-Type"))
			}
			r := decodeModern(t, modernResponse(t, resp, id).Result)
			if r.ResultType != "input_required" || r.InputRequests["mcptest-1"].Method != "elicitation/create" {
				t.Fatalf("first round %+v", r)
			}
			retry := withMeta(params, modernMeta(elicitCaps))
			retry["requestState"] = r.RequestState
			retry["inputResponses"] = map[string]any{"mcptest-1": map[string]string{"action": "decline"}}
			resp, id = c.modernPost("tools/call", retry, nil)
			final := modernResponse(t, resp, id)
			if res := decodeToolResult(t, final.Result); !strings.Contains(res.text(), "decline") {
				t.Errorf("retry %s", final.Result)
			}

			// Without the capability: 400 with -32021, not a stream.
			resp, _ = c.modernPost("tools/call", params, nil)
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("status %d, want 400", resp.StatusCode)
			}
			if e := jsonrpcErrorBody(t, resp); e.Code != CodeMissingClientCapability {
				t.Errorf("%v, want -32021", e)
			}
		})
	}
}

func TestModernHTTPClosingStreamCancels(t *testing.T) {
	hs := NewHTTPServer(t, NewDefault(nil), nil)
	c := newHTTPClient(t, hs)
	meta := modernMeta(nil)
	meta["progressToken"] = "p"
	resp, id := c.modernPost("tools/call", withMeta(map[string]any{"name": "slow", "arguments": map[string]int{"steps": 100000, "delay_ms": 1}}, meta), nil)
	events := openEvents(t, resp)
	if m := events.nextMessage(); !isNote(m, jsonrpc.MethodProgress) {
		t.Fatalf("first message %#v, want progress", m)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()
	if err := hs.Streamable.WaitCancelledByClose(ctx, id); err != nil {
		t.Fatal(err)
	}
}

func TestModernHTTPListen(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		t.Run(map[bool]string{false: "sse", true: "json replies"}[asJSON], func(t *testing.T) { testModernHTTPListen(t, asJSON) })
	}
}

// testModernHTTPListen: a listen reply is an event stream even from a
// handler that answers other requests with JSON.
func testModernHTTPListen(t *testing.T, asJSON bool) {
	srv := NewDefault(nil)
	hs := NewHTTPServer(t, srv, &HTTPOptions{JSONResponse: asJSON})
	c := newHTTPClient(t, hs)
	resp, id := c.modernPost("subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	events := openEvents(t, resp)
	ack, ok := events.nextMessage().(*jsonrpc.Notification)
	if !ok || ack.Method != "notifications/subscriptions/acknowledged" || !strings.Contains(string(ack.Params), `"`+MetaSubscriptionID+`":1`) {
		t.Fatalf("first message %#v", ack)
	}
	srv.AddPrompt(Prompt{Name: "not-watched"}, nil)
	srv.AddTool(Tool{Name: "new"}, nil)
	n, ok := events.nextMessage().(*jsonrpc.Notification)
	if !ok || n.Method != "notifications/tools/list_changed" || !strings.Contains(string(n.Params), MetaSubscriptionID) {
		t.Fatalf("second message %#v", n)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()
	if err := hs.Streamable.WaitCancelledByClose(ctx, id); err != nil {
		t.Fatal(err)
	}
	if n := srv.Listeners(); n != 0 {
		t.Errorf("%d listeners after the stream closed", n)
	}
}

func isNote(m jsonrpc.Message, method string) bool {
	n, ok := m.(*jsonrpc.Notification)
	return ok && n.Method == method
}

func TestModernHTTPCloseEndsListenStreams(t *testing.T) {
	srv := NewDefault(nil)
	hs := NewHTTPServer(t, srv, nil)
	c := newHTTPClient(t, hs)
	resp, _ := c.modernPost("subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	events := openEvents(t, resp)
	if m := events.nextMessage(); !isNote(m, "notifications/subscriptions/acknowledged") {
		t.Fatalf("first message %#v", m)
	}
	hs.Streamable.Close()
	for {
		if _, err := events.next(); err != nil {
			break // the stream ended
		}
	}
	if n := srv.Listeners(); n != 0 {
		t.Errorf("%d listeners after Close", n)
	}
}
