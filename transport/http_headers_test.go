package transport

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Two sessions with one endpoint share the pooled POSTs, whose headers
// are kept between uses: each POST still carries its own session's id.
func TestHTTPPostsCarryTheirOwnSession(t *testing.T) {
	var sessions atomic.Int64
	var mu sync.Mutex
	seen := map[int64]string{} // request id -> session header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, err := jsonrpc.DecodeMessage(body)
		req, ok := m.(*jsonrpc.Request)
		if r.Method != http.MethodPost || err != nil || !ok {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if req.Method == methodInitialize {
			w.Header().Set(headerSessionID, "s-"+strconv.FormatInt(sessions.Add(1), 10))
		} else if id, ok := req.ID.Int64(); ok {
			mu.Lock()
			seen[id] = r.Header.Get(headerSessionID)
			mu.Unlock()
		}
		out, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: []byte(`{}`)})
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	}))
	t.Cleanup(srv.Close)

	a := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
	streamRoundTrip(t, a, 1, methodInitialize)
	b := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
	streamRoundTrip(t, b, 1, methodInitialize)
	for i := range int64(20) {
		streamRoundTrip(t, a, 100+i, "tools/list")
		streamRoundTrip(t, b, 200+i, "tools/list")
	}
	mu.Lock()
	defer mu.Unlock()
	for i := range int64(20) {
		if got := seen[100+i]; got != "s-1" {
			t.Errorf("request %d of the first session carried session %q, want s-1", 100+i, got)
		}
		if got := seen[200+i]; got != "s-2" {
			t.Errorf("request %d of the second session carried session %q, want s-2", 200+i, got)
		}
	}
}
