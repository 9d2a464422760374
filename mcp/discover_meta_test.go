package mcp

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/mcpwire/mcpwire/transport"
)

// TestDiscoverMetaKeptRaw: a server/discover result of the common shape
// leaves its _meta as bytes in the session (no maps while idle), and
// InitializeResult decodes them as encoding/json decodes the result, a
// fresh map per call; the serverInfo is taken from them as before.
func TestDiscoverMetaKeptRaw(t *testing.T) {
	const meta = `{"io.modelcontextprotocol/serverInfo":{"name":"fast","version":"1.0"},"example.com/x":{"k":"v"}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.Unmarshal(body, &req) != nil || req.Method != MethodServerDiscover {
			http.Error(w, "only server/discover", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"supportedVersions":["`+ModernProtocolVersion+`"],"capabilities":{"tools":{}},"_meta":`+meta+`}}`)
	}))
	t.Cleanup(srv.Close)
	c, err := Connect(t.Context(), &transport.StreamableHTTP{URL: srv.URL}, &ClientOptions{ProtocolVersion: ModernProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })

	if c.init.Meta != nil || c.initMeta == nil || *c.initMeta != meta {
		t.Fatalf("the session keeps Meta %v and raw %v, want no map and the bytes", c.init.Meta, c.initMeta)
	}
	// A second session to the same server shares the bytes.
	c2, err := Connect(t.Context(), &transport.StreamableHTTP{URL: srv.URL}, &ClientOptions{ProtocolVersion: ModernProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c2.Close() })
	if c2.initMeta != c.initMeta {
		t.Error("two sessions that got the same _meta keep a copy each")
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(meta), &want); err != nil {
		t.Fatal(err)
	}
	got := c.InitializeResult().Meta
	if !reflect.DeepEqual(got, want) {
		t.Errorf("InitializeResult().Meta = %v, want %v", got, want)
	}
	delete(got, "example.com/x")
	if _, ok := c.InitializeResult().Meta["example.com/x"]; !ok {
		t.Error("a caller's edit of InitializeResult().Meta reached the session")
	}
	if info := c.ServerInfo(); info.Name != "fast" || info.Version != "1.0" {
		t.Errorf("ServerInfo = %+v", info)
	}
}
