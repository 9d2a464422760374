package gateway

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

func TestPassOn(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"content":[{"type":"text","text":"hi"}]}`, `{"content":[{"type":"text","text":"hi"}]}`},
		{`{"content":[],"resultType":"complete","isError":true,"x":1}`, `{"content":[],"isError":true}`},
		{`{"content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"up"}}}`, `{"content":[]}`},
		{`{"_meta":{"a":1,"io.modelcontextprotocol/serverInfo":{"name":"up"},"b":2},"content":[]}`, `{"_meta":{"a":1,"b":2},"content":[]}`},
		{`{"content":[],"structuredContent":{"n":1},"_meta":null,"isError":null}`, `{"content":[],"structuredContent":{"n":1}}`},
	} {
		got, ok := passOn([]byte(tc.in))
		if !ok || string(got) != tc.want {
			t.Errorf("passOn(%s) = %s, %v; want %s", tc.in, got, ok, tc.want)
		}
	}
	for _, in := range []string{
		``, `[]`, `{}`, `{"isError":true}`, // no content: the decoded route decides
		`{"content":[],"content":[]}`,
		`{"cont\u0065nt":[]}`,
		`{"content":[],"_meta":{"io.modelcontextprotocol/serverInf\u006f":{}}}`,
		`{"content":[]`,
		`{"content":[],"Content":[]}`,
	} {
		if got, ok := passOn([]byte(in)); ok {
			t.Errorf("passOn(%s) = %s, want it refused", in, got)
		}
	}
}

// FuzzPassOn holds passOn to what decoding the result and encoding it
// again gave the host: the same CallToolResult, less the serverInfo.
func FuzzPassOn(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"hi"}],"isError":false,"_meta":{"k":"v","io.modelcontextprotocol/serverInfo":{"name":"u"}}}`))
	f.Add([]byte(`{"content":[],"structuredContent":[1,2],"resultType":"complete"}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		// The MCP client hands on only a result it decoded.
		var want mcp.CallToolResult
		if json.Unmarshal(raw, &want) != nil {
			return
		}
		out, ok := passOn(raw)
		if !ok {
			return
		}
		delete(want.Meta, server.MetaServerInfo)
		if len(want.Meta) == 0 {
			want.Meta = nil
		}
		var got mcp.CallToolResult
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("passOn(%q) = %q: %v", raw, out, err)
		}
		if !reflect.DeepEqual(normal(t, got), normal(t, want)) {
			t.Fatalf("passOn(%q) = %q, decoded %+v; want %+v", raw, out, got, want)
		}
	})
}

// normal is r encoded, so that equal results compare equal whatever their
// raw members' spacing.
func normal(t *testing.T, r mcp.CallToolResult) string {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	_ = json.Unmarshal(b, &v)
	b, _ = json.Marshal(v)
	return string(b)
}
