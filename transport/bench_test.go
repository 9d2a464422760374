package transport

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// benchHTTPServer answers every POSTed request with a small result, as
// JSON or as a one-event SSE stream, and accepts everything else.
func benchHTTPServer(b *testing.B, sse bool) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		m, err := jsonrpc.DecodeMessage(body)
		req, ok := m.(*jsonrpc.Request)
		if err != nil || !ok {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		result := json.RawMessage(`{"content":[{"type":"text","text":"hello, world"}]}`)
		if req.Method == "initialize" {
			w.Header().Set("Mcp-Session-Id", "bench")
			result = json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"bench","version":"1"}}`)
		}
		out, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: result})
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte("event: message\ndata: "))
			w.Write(out)
			w.Write([]byte("\n\n"))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.Write(out)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// roundTrips writes a request and reads its response, b.N times.
func roundTrips(b *testing.B, s jsonrpc.Stream) {
	ctx := context.Background()
	params := json.RawMessage(`{"name":"echo","arguments":{"message":"hello, world"}}`)
	var id int64
	b.ReportAllocs()
	for b.Loop() {
		id++
		if err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: params}); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Read(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamableHTTPRoundTrip is one request and its response over
// Streamable HTTP on loopback, with a JSON and with an SSE reply.
func BenchmarkStreamableHTTPRoundTrip(b *testing.B) {
	for _, sse := range []bool{false, true} {
		name := "json"
		if sse {
			name = "sse"
		}
		b.Run(name, func(b *testing.B) {
			srv := benchHTTPServer(b, sse)
			s, err := (&StreamableHTTP{URL: srv.URL, DisableListener: true}).Connect(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			init := &jsonrpc.Request{ID: jsonrpc.StringID("init"), Method: "initialize", Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}`)}
			if err := s.Write(ctx, init); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Read(ctx); err != nil {
				b.Fatal(err)
			}
			roundTrips(b, s)
		})
	}
}
