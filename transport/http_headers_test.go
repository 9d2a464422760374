package transport

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
)

// Two sessions with one endpoint share the pooled POSTs, whose headers
// are kept between uses: each POST still carries its own session's id.
func TestHTTPPostsCarryTheirOwnSession(t *testing.T) {
	var mu sync.Mutex
	var sessions int
	var carried []string // the session id of each POST after the handshakes, in order
	srv := echoMCPServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if sid := r.Header.Get(headerSessionID); sid != "" {
			carried = append(carried, sid)
			return
		}
		sessions++ // initialize, the only POST without a session
		w.Header().Set(headerSessionID, "s-"+strconv.Itoa(sessions))
	})

	a := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
	streamRoundTrip(t, a, 1, methodInitialize)
	b := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
	streamRoundTrip(t, b, 1, methodInitialize)
	const rounds = 20
	for i := range int64(rounds) {
		streamRoundTrip(t, a, 100+i, "tools/list")
		streamRoundTrip(t, b, 200+i, "tools/list")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(carried) != 2*rounds {
		t.Fatalf("%d POSTs with a session, want %d", len(carried), 2*rounds)
	}
	for i, sid := range carried {
		if want := "s-" + strconv.Itoa(1+i%2); sid != want {
			t.Errorf("POST %d carried session %q, want %q", i, sid, want)
		}
	}
}
