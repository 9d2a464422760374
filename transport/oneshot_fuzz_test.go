package transport

import (
	"bytes"
	"net/url"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// FuzzCallHTTPReply feeds arbitrary reply bodies to both reply readers of
// CallHTTP: they must never panic, and a response they return must be the
// one for the request.
func FuzzCallHTTPReply(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":1,"result":{}}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`,
		"id: 0\nretry: 1000\ndata:\n\n: keep-alive\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":\"srv\",\"method\":\"sampling/createMessage\"}\r\n\r\n",
		"data: {\"jsonrpc\":",
	} {
		f.Add([]byte(s))
	}
	req, _ := jsonrpc.NewRequest(jsonrpc.Int64ID(1), "tools/call", nil)
	f.Fuzz(func(t *testing.T, body []byte) {
		c := oneShot{req: req, redacted: "http://h/mcp", max: 1 << 16}
		for _, read := range []func() (*jsonrpc.Response, error){
			func() (*jsonrpc.Response, error) { return c.readJSON(bytes.NewReader(body)) },
			func() (*jsonrpc.Response, error) { return c.readSSE(bytes.NewReader(body)) },
		} {
			r, err := read()
			if (r == nil) == (err == nil) {
				t.Fatalf("want exactly one of response and error, got %v, %v", r, err)
			}
			if r != nil && r.ID != req.ID {
				t.Fatalf("returned the response to %s for request %s", r.ID, req.ID)
			}
		}
	})
}

// FuzzLegacyEndpoint checks that whatever a server puts in its endpoint
// event, the resolved URL is on the SSE URL's origin or refused.
func FuzzLegacyEndpoint(f *testing.F) {
	for _, s := range []string{
		"/message?sessionId=0f2c", "messages", "http://127.0.0.1:8080/x", "http://evil.example/x",
		"//evil.example/x", "https://127.0.0.1:8080/x", "http://127.0.0.1:8080@evil.example/", " ", "%zz",
	} {
		f.Add([]byte(s))
	}
	base, _ := url.Parse("http://127.0.0.1:8080/sse")
	f.Fuzz(func(t *testing.T, data []byte) {
		s := newSSEStream(&SSE{URL: base.String()}, base)
		defer s.cancel(nil)
		u, err := s.resolveEndpoint(base, data)
		if err != nil {
			return
		}
		if u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Port() != "8080" {
			t.Fatalf("endpoint %q resolved to %s on another origin", data, u)
		}
	})
}
