package transport

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// FuzzHTTPReplyBody feeds arbitrary bodies to the readers of a request's
// reply, JSON and SSE. Whatever the server sends, nothing panics and the
// call always gets a response: the server's, or a synthesized error.
func FuzzHTTPReplyBody(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"3"}]}}`,
		`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}},{"jsonrpc":"2.0","id":7,"result":{}}]`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`,
		`<html>502 Bad Gateway</html>`,
		"id: e1\nretry: 500\ndata:\n\n",
		"id: p\ndata:\n\nevent: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n" +
			"data: {\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"elicitation/create\",\"params\":{}}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n",
		"data: not json\n\ndata: [{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}]\n\n",
		"id: 1\ndata: {\"id\":7,\"result\":{}}\n\n",
		`[{"jsonrpc":"2.0","method":"m"},{"jsonrpc":"2.0","id":7,"error":{"code":"x","message":"m"}}]`,
		": keep-alive\n\nevent: endpoint\ndata: /x\n\n",
	} {
		f.Add([]byte(seed), true)
		f.Add([]byte(seed), false)
	}
	u, err := url.Parse("http://127.0.0.1:9/mcp")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, asSSE bool) {
		// No resumption: the fuzzer must not reach for the network.
		cfg := &StreamableHTTP{URL: u.String(), Reconnect: ReconnectPolicy{MaxAttempts: -1}, MaxEventSize: 1 << 16, MaxBodySize: 1 << 20}
		s := newHTTPStream(newHTTPEndpoint(cfg, u))
		defer s.Close()
		id := jsonrpc.Int64ID(7)
		call := takeCall()
		call.id, call.method = id, "tools/call"
		if !s.track(call) {
			t.Fatal("a new stream refused a call")
		}
		ct := "application/json"
		if asSSE {
			ct = "text/event-stream"
		}
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ct}}, Body: io.NopCloser(bytes.NewReader(body))}
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer s.finishCall(call)
			if asSSE {
				s.readPOSTStream(call, resp)
			} else {
				s.readJSONReply(call, resp)
			}
		}()
		answered := 0
		count := func(it inboundItem) {
			if r, ok := it.msg.(*jsonrpc.Response); ok && r.ID == id {
				answered++
			}
			// An invalid response to the call is its answer too: the
			// engine fails the call with it.
			if d := (*jsonrpc.DecodeError)(nil); errors.As(it.err, &d) && d.ID == id {
				answered++
			}
			if it.msg == nil && !jsonrpc.IsDecodeError(it.err) {
				t.Fatalf("non-terminal item with an error that is not a decode error: %v", it.err)
			}
		}
		q := s.queue()
		for running := true; running; {
			select {
			case it := <-q:
				count(it)
			case <-done:
				running = false
			}
		}
		for drained := false; !drained; {
			select {
			case it := <-q:
				count(it)
			default:
				drained = true
			}
		}
		if answered == 0 {
			t.Fatalf("the call got no response for body %q (SSE %v)", body, asSSE)
		}
	})
}

// FuzzGzipReply feeds arbitrary bytes as a gzip-encoded reply body: the
// body reads as an error or as data within the limit, and never panics.
func FuzzGzipReply(f *testing.F) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	zw.Close()
	f.Add(b.Bytes())
	f.Add([]byte{})
	f.Add([]byte("\x1f\x8b\x08"))
	f.Fuzz(func(t *testing.T, body []byte) {
		resp := &http.Response{
			StatusCode:    200,
			Header:        http.Header{"Content-Encoding": {"gzip"}},
			ContentLength: int64(len(body)),
			Body:          io.NopCloser(bytes.NewReader(body)),
		}
		decodeGzip(resp)
		// An empty body is left alone, as net/http leaves it.
		if len(body) > 0 && (resp.Header.Get("Content-Encoding") != "" || resp.ContentLength != -1) {
			t.Fatalf("gzip not taken off: %v, length %d", resp.Header, resp.ContentLength)
		}
		data, err := readLimited(resp.Body, resp.ContentLength, 1<<20)
		if err == nil && len(data) > 1<<20 {
			t.Fatalf("read %d bytes over the limit", len(data))
		}
		resp.Body.Close()
	})
}
