package mcptest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// Secrets the hostile tests configure, which no error may show.
const (
	hostileToken  = "tok-HOSTILE-SECRET-1234"
	hostileAPIKey = "key-HOSTILE-SECRET-5678"
)

// hostileConn connects the JSON-RPC engine over Streamable HTTP to srv,
// with an Authorization and a secret header, and runs the handshake.
func hostileConn(t *testing.T, srv *mcptest.HTTPServer, tune func(*transport.StreamableHTTP)) *jsonrpc.Conn {
	t.Helper()
	tr := &transport.StreamableHTTP{
		URL:             srv.URL,
		Headers:         http.Header{"Authorization": {"Bearer " + hostileToken}, "X-Api-Key": {hostileAPIKey}},
		DisableListener: true,
	}
	if tune != nil {
		tune(tr)
	}
	stream, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc.NewConn(stream, jsonrpc.Options{})
	t.Cleanup(func() { conn.Close() })
	ctx := context.Background()
	params := map[string]any{
		"protocolVersion": mcptest.LatestProtocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "hostile-test", "version": "1"},
	}
	if _, err := conn.Call(ctx, "initialize", params, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := conn.Notify(ctx, "notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	return conn
}

// countPOSTs counts the POSTed requests of method the server received.
func countPOSTs(srv *mcptest.HTTPServer, method string) int {
	n := 0
	for _, r := range srv.Streamable.Requests() {
		var m struct {
			Method string `json:"method"`
		}
		if r.Method == http.MethodPost && json.Unmarshal(r.Body, &m) == nil && m.Method == method {
			n++
		}
	}
	return n
}

// assertNoSecret fails if err's text shows a configured secret.
func assertNoSecret(t *testing.T, err error) {
	t.Helper()
	for _, s := range []string{hostileToken, hostileAPIKey} {
		if strings.Contains(err.Error(), s) {
			t.Fatalf("the error shows a secret: %v", err)
		}
	}
}

func listTools(conn *jsonrpc.Conn, timeout time.Duration) error {
	_, err := conn.Call(context.Background(), "tools/list", nil, &jsonrpc.CallOptions{Timeout: timeout})
	return err
}

// A session the server forgot (404) is renewed with a new initialize, and
// the safe request that met the 404 is sent again, once.
func TestHostileHTTPSessionLostIsRenewedAndReplayed(t *testing.T) {
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	conn := hostileConn(t, srv, nil)
	old := srv.Streamable.SessionIDs()
	srv.Streamable.ExpireAllSessions()
	if err := listTools(conn, 0); err != nil {
		t.Fatalf("tools/list after the session expired: %v", err)
	}
	if n := countPOSTs(srv, "initialize"); n != 2 {
		t.Fatalf("%d initialize requests, want 2 (one renewal)", n)
	}
	if n := countPOSTs(srv, "tools/list"); n != 2 {
		t.Fatalf("%d tools/list requests, want 2 (the replay)", n)
	}
	if now := srv.Streamable.SessionIDs(); len(now) != 1 || now[0] == old[0] {
		t.Fatalf("sessions %v after renewal, were %v", now, old)
	}
}

// A 500 fails the call that met it, with the status; the connection and
// the next call are unaffected.
func TestHostileHTTP500FailsOnlyThatCall(t *testing.T) {
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	conn := hostileConn(t, srv, nil)
	srv.Streamable.FailNext(1, mcptest.HTTPFailure{Status: http.StatusInternalServerError})
	err := listTools(conn, 0)
	if !transport.IsHTTPStatus(err, http.StatusInternalServerError) {
		t.Fatalf("tools/list: %v, want HTTP 500", err)
	}
	assertNoSecret(t, err)
	if err := listTools(conn, 0); err != nil {
		t.Fatalf("the next call: %v", err)
	}
}

// A 429 with a short Retry-After is waited out for a safe request, which
// is then sent once more; a request with side effects fails with the
// status, and so does a safe one told to come back later than the bound.
func TestHostileHTTP429RetryAfter(t *testing.T) {
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	conn := hostileConn(t, srv, nil)

	srv.Streamable.FailNext(1, mcptest.HTTPFailure{Status: http.StatusTooManyRequests, RetryAfter: "0"})
	if err := listTools(conn, 0); err != nil {
		t.Fatalf("tools/list after 429 with Retry-After 0: %v", err)
	}
	if n := countPOSTs(srv, "tools/list"); n != 2 {
		t.Fatalf("%d tools/list requests, want 2", n)
	}

	srv.Streamable.FailNext(1, mcptest.HTTPFailure{Status: http.StatusTooManyRequests, RetryAfter: "0"})
	_, err := conn.Call(context.Background(), "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"message": "hi"}}, nil)
	if !transport.IsHTTPStatus(err, http.StatusTooManyRequests) {
		t.Fatalf("tools/call: %v, want HTTP 429 (not sent twice)", err)
	}
	if n := countPOSTs(srv, "tools/call"); n != 1 {
		t.Fatalf("tools/call sent %d times, want once", n)
	}

	srv.Streamable.FailNext(1, mcptest.HTTPFailure{Status: http.StatusTooManyRequests, RetryAfter: "3600"})
	if err := listTools(conn, 0); !transport.IsHTTPStatus(err, http.StatusTooManyRequests) {
		t.Fatalf("tools/list told to wait an hour: %v, want HTTP 429 at once", err)
	}
	if err := listTools(conn, 0); err != nil {
		t.Fatalf("the next call: %v", err)
	}
}

// An event stream that never sends anything, or only keep-alive comments,
// does not outlast the call's timeout, and costs only that call.
func TestHostileHTTPStreamsWithoutEventsTimeOut(t *testing.T) {
	for _, m := range []mcptest.HTTPMisbehaviour{
		{Kind: mcptest.HTTPSilentStream, Target: "tools/list"},
		{Kind: mcptest.HTTPKeepAliveOnly, Target: "tools/list", Interval: time.Millisecond},
	} {
		t.Run(string(m.Kind), func(t *testing.T) {
			srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
			conn := hostileConn(t, srv, nil)
			srv.Streamable.MisbehaveNext(m)
			err := listTools(conn, 200*time.Millisecond)
			if !errors.Is(err, jsonrpc.ErrTimeout) {
				t.Fatalf("tools/list: %v, want its timeout", err)
			}
			if err := listTools(conn, 0); err != nil {
				t.Fatalf("the next call: %v", err)
			}
		})
	}
}

// One huge event arrives whole, once the event limit allows it, and
// reading it costs a bounded multiple of its size.
func TestHostileHTTPHugeEvent(t *testing.T) {
	for _, size := range []int{8 << 20, 100 << 20} {
		t.Run(fmt.Sprintf("%dMiB", size>>20), func(t *testing.T) {
			hugeEvent(t, size)
		})
	}
}

func hugeEvent(t *testing.T, size int) {
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	conn := hostileConn(t, srv, func(tr *transport.StreamableHTTP) { tr.MaxEventSize = size + 1<<20 })
	srv.Streamable.MisbehaveNext(mcptest.HTTPMisbehaviour{Kind: mcptest.HTTPHugeEvent, Target: "big", Size: size})
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	// No deadline: a loaded machine may take longer than the default to
	// move 100 MiB under the race detector, and time is not what this
	// test measures.
	res, err := conn.Call(context.Background(), "tools/call", map[string]any{"name": "big"}, &jsonrpc.CallOptions{Timeout: jsonrpc.NoTimeout})
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	runtime.ReadMemStats(&after)
	if len(res) < size {
		t.Fatalf("result of %d bytes, want more than %d", len(res), size)
	}
	// The reader's buffer, doubled as the line grows (about 4 sizes in
	// all), then the message, its result and the caller's copy: about 7
	// sizes (8 MiB allocates 56 MiB), never one copy per piece read.
	if grown := after.TotalAlloc - before.TotalAlloc; grown > uint64(12*size) {
		t.Fatalf("reading a %d-byte event allocated %d bytes", size, grown)
	}
}

// A login page (or any reply that is neither JSON nor SSE) says the URL is
// not an MCP endpoint, quotes the start of the page, and shows no secret
// even when the page echoes the request's credentials.
func TestHostileHTTPLoginPageIsNotAnEndpoint(t *testing.T) {
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	conn := hostileConn(t, srv, nil)
	srv.Streamable.MisbehaveNext(mcptest.HTTPMisbehaviour{Kind: mcptest.HTTPLoginPage, Target: "tools/list"})
	err := listTools(conn, 0)
	if !errors.Is(err, transport.ErrNotMCPEndpoint) {
		t.Fatalf("tools/list: %v, want ErrNotMCPEndpoint", err)
	}
	for _, want := range []string{"not an MCP endpoint", "text/html", "<title>Sign in</title>"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	assertNoSecret(t, err)
}

// A redirect to another origin is followed without Authorization or the
// configured secret headers.
func TestHostileHTTPRedirectToAnotherOriginDropsSecrets(t *testing.T) {
	var mu sync.Mutex
	var seen []http.Header
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		http.Error(w, "elsewhere", http.StatusServiceUnavailable)
	}))
	defer other.Close()
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	conn := hostileConn(t, srv, nil)
	srv.Streamable.MisbehaveNext(mcptest.HTTPMisbehaviour{Kind: mcptest.HTTPRedirect, Target: "tools/list", Location: other.URL + "/mcp"})
	if err := listTools(conn, 0); !transport.IsHTTPStatus(err, http.StatusServiceUnavailable) {
		t.Fatalf("tools/list: %v, want the other origin's 503", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 {
		t.Fatalf("the other origin got %d requests, want 1", len(seen))
	}
	for _, name := range []string{"Authorization", "X-Api-Key"} {
		if v := seen[0].Get(name); v != "" {
			t.Errorf("the other origin got %s", name)
		}
	}
}

// A body sent one byte at a time ends at the call's deadline, not when the
// server is done.
func TestHostileHTTPSlowLorisBodyEndsAtTheDeadline(t *testing.T) {
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	conn := hostileConn(t, srv, nil)
	// About 60 bytes at one every 50 ms: 3 s in all, far past the
	// call's 100 ms; the test ends with the call, not the body.
	srv.Streamable.MisbehaveNext(mcptest.HTTPMisbehaviour{Kind: mcptest.HTTPSlowBody, Target: "tools/list", Interval: 50 * time.Millisecond})
	if err := listTools(conn, 100*time.Millisecond); !errors.Is(err, jsonrpc.ErrTimeout) {
		t.Fatalf("tools/list: %v, want its timeout", err)
	}
}

// A 401 whose WWW-Authenticate does not parse fails the call with the
// status and the header as it came, so a user sees what the server sent.
func TestHostileHTTPMalformedWWWAuthenticate(t *testing.T) {
	srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	conn := hostileConn(t, srv, nil)
	srv.Streamable.MisbehaveNext(mcptest.HTTPMisbehaviour{Kind: mcptest.HTTPBadWWWAuthenticate, Target: "tools/list"})
	err := listTools(conn, 0)
	var he *transport.HTTPError
	if !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized {
		t.Fatalf("tools/list: %v, want HTTP 401", err)
	}
	if !strings.Contains(err.Error(), `WWW-Authenticate: Bearer realm="mcp, resource_metadata=`) {
		t.Fatalf("error %q does not show the header", err)
	}
	assertNoSecret(t, err)
}
