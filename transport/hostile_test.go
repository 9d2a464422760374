package transport

// Hostile servers on loopback that try to take the client's memory or CPU.

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// gzipBomb is a gzip body of a few hundred KiB that inflates to a valid
// JSON-RPC response of 200 MiB: one compressed MiB of zeros repeated as
// gzip members, which a gzip reader decodes one after the other.
func gzipBomb(t *testing.T) []byte {
	t.Helper()
	member := func(b []byte) []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	zeros := member(bytes.Repeat([]byte("0"), 1<<20))
	bomb := member([]byte(`{"jsonrpc":"2.0","id":1,"result":{"x":"`))
	for range 200 {
		bomb = append(bomb, zeros...)
	}
	return append(bomb, member([]byte(`"}}`))...)
}

// TestHostileGzipBomb: a small gzip reply that inflates far past the body
// limit fails the call once the limit is reached, and costs memory in
// proportion to the limit, not to the inflated size.
func TestHostileGzipBomb(t *testing.T) {
	bomb := gzipBomb(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	}))
	defer srv.Close()
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	httpWrite(t, s, httpRequest(t, 1, "tools/call", nil))
	msg := callError(t, httpReadWithin(t, s, longTimeout))
	runtime.ReadMemStats(&after)
	if !strings.Contains(msg, "exceeds the limit") {
		t.Fatalf("error %q, want the body limit", msg)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 4*uint64(DefaultMaxBodySize) {
		t.Fatalf("reading the bomb allocated %d MiB for a %d MiB limit", grown>>20, DefaultMaxBodySize>>20)
	}
}

// callError returns the message of the error response m, failing the
// test (without quoting a huge result) if m is something else.
func callError(t *testing.T, m jsonrpc.Message) string {
	t.Helper()
	r, ok := m.(*jsonrpc.Response)
	if !ok {
		t.Fatalf("got a %T, want an error response", m)
	}
	if r.Error == nil {
		t.Fatalf("got a result of %d bytes, want an error response", len(r.Result))
	}
	return r.Error.Message
}

// endlessLine answers with an SSE stream whose one data: line never ends,
// until the client goes away; gone is closed then, started once the
// stream is well under way. Only one request may get the stream.
func endlessLine(t *testing.T, gone chan<- struct{}, started chan<- struct{}) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, _ := io.ReadAll(r.Body); bytes.Contains(body, []byte(`"notifications/`)) {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		defer close(gone)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write([]byte("data: "))
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for i := 0; ; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
			if i == 16 {
				close(started)
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestHostileEndlessSSELine: a reply stream whose data: line never ends
// fails the call at the default event limit instead of buffering forever.
func TestHostileEndlessSSELine(t *testing.T) {
	gone, started := make(chan struct{}), make(chan struct{})
	srv := endlessLine(t, gone, started)
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true, Reconnect: ReconnectPolicy{MaxAttempts: -1}})
	httpWrite(t, s, httpRequest(t, 1, "tools/call", nil))
	if msg := callError(t, httpReadWithin(t, s, longTimeout)); !strings.Contains(msg, "maximum") {
		t.Fatalf("error %q, want the event size limit", msg)
	}
	<-gone
}

// TestHostileEndlessSSELineCancelled: with the limit lifted, cancelling
// the call (what --timeout does through the engine) still ends it: the
// reply stream is closed and the server sees the client go.
func TestHostileEndlessSSELineCancelled(t *testing.T) {
	gone, started := make(chan struct{}), make(chan struct{})
	srv := endlessLine(t, gone, started)
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true, MaxEventSize: -1})
	httpWrite(t, s, httpRequest(t, 1, "tools/call", nil))
	<-started
	httpWrite(t, s, httpNotification(t, "notifications/cancelled", map[string]any{"requestId": 1}))
	<-gone
}

// TestHostileDeeplyNestedJSON: a reply nested a hundred thousand levels
// deep is refused as a parse error, without a crash or a hang.
func TestHostileDeeplyNestedJSON(t *testing.T) {
	const depth = 100000
	body := `{"jsonrpc":"2.0","id":1,"result":{"x":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}))
	defer srv.Close()
	s := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
	httpWrite(t, s, httpRequest(t, 1, "tools/call", nil))
	m := httpRead(t, s)
	if r, ok := m.(*jsonrpc.Response); !ok || r.Error == nil || r.Error.Code != jsonrpc.CodeParseError {
		t.Fatalf("got %+v, want a parse error", m)
	}
}
