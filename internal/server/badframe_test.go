package server

import (
	"net/http"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// badFrames are frames that are not messages, with the code JSON-RPC 2.0
// answers them with: -32700 for bytes that are not JSON, -32600 for JSON
// that is not a valid message.
var badFrames = []struct {
	name, frame string
	code        int64
}{
	{"empty array", `[]`, jsonrpc.CodeInvalidRequest},
	{"number", `3`, jsonrpc.CodeInvalidRequest},
	{"string", `"ping"`, jsonrpc.CodeInvalidRequest},
	{"version only", `{"jsonrpc":"2.0"}`, jsonrpc.CodeInvalidRequest},
	{"foreign object", `{"foo":1}`, jsonrpc.CodeInvalidRequest},
	{"method not a string", `{"jsonrpc":"2.0","id":1,"method":1}`, jsonrpc.CodeInvalidRequest},
	{"broken object", `{bad`, jsonrpc.CodeParseError},
	{"bare word", `hello`, jsonrpc.CodeParseError},
	{"broken array", `[1,{bad`, jsonrpc.CodeParseError},
	{"unterminated string", `"ping`, jsonrpc.CodeParseError},
}

// On stdio each bad line gets one id-less answer of its code, and the
// session goes on.
func TestBadLineAnswers(t *testing.T) {
	c, _ := pipeClient(t, NewDefault(nil))
	for _, tt := range badFrames {
		c.sendRaw(tt.frame)
		m, ok := c.next()
		r, isResp := m.(*jsonrpc.Response)
		if !ok || !isResp || r.ID.IsValid() || r.Error == nil || r.Error.Code != tt.code {
			t.Errorf("%s %s: answer %#v, want an id-less error %d", tt.name, tt.frame, m, tt.code)
		}
	}
	c.call("ping", nil)
}

// Over Streamable HTTP a bad body gets status 400 and an id-less error of
// its code.
func TestBadBodyAnswers(t *testing.T) {
	c := newHTTPClient(t, NewHTTPServer(t, NewDefault(nil), nil))
	for _, tt := range badFrames {
		resp := c.do(http.MethodPost, tt.frame, nil)
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s %s: status %d, want 400", tt.name, tt.frame, resp.StatusCode)
		}
		if e := jsonrpcErrorBody(t, resp); e.Code != tt.code {
			t.Errorf("%s %s: error %v, want %d", tt.name, tt.frame, e, tt.code)
		}
	}
}
