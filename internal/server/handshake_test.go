package server

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestHandshakeEchoesVersionAndRecordsClient(t *testing.T) {
	s := NewDefault(&Options{Name: "srv", Version: "9.9", Instructions: "be nice"})
	c, _ := pipeClient(t, s)
	var res struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
		ServerInfo      Implementation             `json:"serverInfo"`
		Instructions    string                     `json:"instructions"`
	}
	mustJSON(t, c.initialize("2025-06-18"), &res)
	if res.ProtocolVersion != "2025-06-18" {
		t.Errorf("protocolVersion = %q, want the client's 2025-06-18 echoed", res.ProtocolVersion)
	}
	if res.ServerInfo != (Implementation{Name: "srv", Version: "9.9"}) || res.Instructions != "be nice" {
		t.Errorf("serverInfo %+v, instructions %q", res.ServerInfo, res.Instructions)
	}
	for _, cap := range []string{"tools", "resources", "prompts", "logging", "completions"} {
		if _, ok := res.Capabilities[cap]; !ok {
			t.Errorf("capability %s missing from %v", cap, res.Capabilities)
		}
	}
	c.call("ping", nil) // the session is usable, and the server has seen initialized
	sessions := s.Sessions()
	if len(sessions) != 1 {
		t.Fatalf("%d sessions, want 1", len(sessions))
	}
	ss := sessions[0]
	<-ss.Initialized()
	if got := ss.ClientInfo(); got.Name != "wire-test" || got.Version != "0.1" {
		t.Errorf("ClientInfo = %+v", got)
	}
	var caps map[string]json.RawMessage
	mustJSON(t, ss.ClientCapabilities(), &caps)
	if _, ok := caps["sampling"]; !ok {
		t.Errorf("client capabilities not recorded: %s", ss.ClientCapabilities())
	}
	if ss.ProtocolVersion() != "2025-06-18" {
		t.Errorf("session version %q", ss.ProtocolVersion())
	}
	var methods []string
	for _, m := range ss.Received() {
		methods = append(methods, methodOf(m))
	}
	if want := []string{"initialize", "notifications/initialized", "ping"}; !slices.Equal(methods, want) {
		t.Errorf("received %v, want %v", methods, want)
	}
}

func TestEmptyServerDeclaresOnlyWhatItHas(t *testing.T) {
	c, _ := pipeClient(t, NewServer(nil))
	var res struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
		ServerInfo   Implementation             `json:"serverInfo"`
	}
	mustJSON(t, c.initialize(LatestProtocolVersion), &res)
	var keys []string
	for k := range res.Capabilities {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"logging", "tools"}; !slices.Equal(keys, want) {
		t.Errorf("capabilities %v, want %v", keys, want)
	}
	if res.ServerInfo.Name != "mcptest" || res.ServerInfo.Version == "" {
		t.Errorf("default serverInfo %+v", res.ServerInfo)
	}
}

func TestVersionNegotiation(t *testing.T) {
	version := func(t *testing.T, opts *Options, asked string) (string, *jsonrpc.Error) {
		c, _ := pipeClient(t, NewServer(opts))
		resp := c.await(c.request("initialize", map[string]any{"protocolVersion": asked, "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "x", "version": "1"}}))
		if resp.Error != nil {
			return "", resp.Error
		}
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		mustJSON(t, resp.Result, &r)
		return r.ProtocolVersion, nil
	}
	t.Run("unsupported gets the latest", func(t *testing.T) {
		if v, err := version(t, nil, "2099-01-01"); err != nil || v != LatestProtocolVersion {
			t.Errorf("got %q, %v; want %q", v, err, LatestProtocolVersion)
		}
	})
	t.Run("oldest is echoed", func(t *testing.T) {
		if v, err := version(t, nil, "2024-11-05"); err != nil || v != "2024-11-05" {
			t.Errorf("got %q, %v", v, err)
		}
	})
	t.Run("forced version", func(t *testing.T) {
		if v, err := version(t, &Options{ProtocolVersion: "2025-03-26"}, "2025-11-25"); err != nil || v != "2025-03-26" {
			t.Errorf("got %q, %v", v, err)
		}
	})
	t.Run("narrowed support answers its newest", func(t *testing.T) {
		if v, err := version(t, &Options{SupportedVersions: []string{"2025-03-26", "2025-06-18"}}, "2025-11-25"); err != nil || v != "2025-06-18" {
			t.Errorf("got %q, %v", v, err)
		}
	})
	t.Run("reject", func(t *testing.T) {
		_, err := version(t, &Options{RejectUnsupportedVersion: true}, "1999-01-01")
		if err == nil || err.Code != jsonrpc.CodeInvalidParams {
			t.Fatalf("got %v, want -32602", err)
		}
		var data struct {
			Supported []string `json:"supported"`
			Requested string   `json:"requested"`
		}
		mustJSON(t, err.Data, &data)
		if data.Requested != "1999-01-01" || !slices.Contains(data.Supported, LatestProtocolVersion) {
			t.Errorf("error data %s", err.Data)
		}
	})
}

func TestHandshakeOrderAndErrors(t *testing.T) {
	s := NewDefault(nil)
	c, _ := pipeClient(t, s)
	c.call("ping", nil) // ping is fine before initialize
	if err := c.callErr("tools/list", nil); err.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("tools/list before initialize: %v, want -32600", err)
	}
	if err := c.callErr("initialize", map[string]any{"capabilities": map[string]any{}}); err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("initialize without protocolVersion: %v, want -32602", err)
	}
	c.initialize(LatestProtocolVersion)
	if err := c.callErr("initialize", map[string]any{"protocolVersion": LatestProtocolVersion}); err.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("second initialize: %v, want -32600", err)
	}
	if err := c.callErr("no/such/method", nil); err.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("unknown method: %v, want -32601", err)
	}
	if err := c.callErr("tools/call", map[string]any{"name": "nope"}); err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("unknown tool: %v, want -32602", err)
	}
	if err := c.callErr("tools/call", []int{1}); err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("array params: %v, want -32602", err)
	}
	// JSON that is not JSON-RPC gets an id-less Invalid Request (not a
	// parse error: it parsed) and the session goes on.
	c.sendRaw(`{"this is": "not json-rpc"}`)
	m, _ := c.next()
	if r, ok := m.(*jsonrpc.Response); !ok || r.ID.IsValid() || r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidRequest {
		t.Errorf("answer to a bad line: %#v", m)
	}
	c.call("ping", nil)
	if p := s.Sessions()[0].Problems(); len(p) != 1 || !jsonrpc.IsDecodeError(p[0]) {
		t.Errorf("problems %v, want the bad line", p)
	}
}
