package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// postQuietly POSTs body as c would, from any goroutine (no t.Fatal):
// the status and body, or an error.
func postQuietly(ctx context.Context, c *httpClient, body string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	req.Header.Set("MCP-Protocol-Version", c.version)
	resp, err := c.srv.Client().Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// The bound holds for a Streamable HTTP session's concurrent POSTs: the
// one past it gets the busy error as its answer at once, and those held
// finish once let go.
func TestHTTPSessionBoundsRequestsInFlight(t *testing.T) {
	const bound = 2
	s, started, release := boundedServer(bound)
	defer s.Close()
	hs := NewHTTPServer(t, s, &HTTPOptions{JSONResponse: true})
	c := newHTTPClient(t, hs)
	c.initialize(LatestProtocolVersion)
	ctx, cancel := context.WithTimeout(t.Context(), safetyNet)
	defer cancel()
	results := make(chan string, bound)
	for range bound {
		body, _ := c.requestBody("tools/call", holdCall)
		go func() {
			status, got, err := postQuietly(ctx, c, body)
			if err == nil && status != http.StatusOK {
				err = fmt.Errorf("status %d", status)
			}
			results <- fmt.Sprint(got, err)
		}()
	}
	for range bound {
		<-started
	}
	resp, id := c.post("tools/call", holdCall)
	r, _ := decodeMessageOrFail(t, []byte(readAll(resp))).(*jsonrpc.Response)
	wantBusy(t, r, id, bound)
	releaseHeld(t, release, results, bound, "a held call")
}

// releaseHeld lets n held calls go and checks that each reports it was
// released; what names them in a failure.
func releaseHeld(t *testing.T, release chan<- struct{}, results <-chan string, n int, what string) {
	t.Helper()
	for range n {
		release <- struct{}{}
	}
	for range n {
		if got := <-results; !strings.Contains(got, "released") {
			t.Errorf("%s: %s", what, got)
		}
	}
}

// The bound holds for a legacy HTTP+SSE session: of a batch one over the
// bound, the last request gets the busy error on the session's stream.
func TestLegacySessionBoundsRequestsInFlight(t *testing.T) {
	const bound = 2
	s, started, release := boundedServer(bound)
	defer s.Close()
	hs := NewHTTPServer(t, s, nil)
	endpoint, events := openLegacyEvents(t, hs)
	post := func(body string) {
		t.Helper()
		resp, err := hs.Client().Post(endpoint, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("POST %s: %s", body, resp.Status)
		}
	}
	post(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r, ok := events.nextMessage().(*jsonrpc.Response); !ok || r.Error != nil {
		t.Fatalf("initialize: %#v", r)
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var batch []string
	for i := range bound + 1 {
		batch = append(batch, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"hold","arguments":{}}}`, i+1))
	}
	post("[" + strings.Join(batch, ",") + "]")
	r, _ := events.nextMessage().(*jsonrpc.Response)
	wantBusy(t, r, jsonrpc.Int64ID(bound+1), bound)
	for range bound {
		<-started
	}
	for range bound {
		release <- struct{}{}
	}
	for range bound {
		if r, ok := events.nextMessage().(*jsonrpc.Response); !ok || r.Error != nil {
			t.Fatalf("a held call: %#v", r)
		}
	}
}

// Stateless requests are sessions of one request each: the per-session
// bound does not make them wait on or refuse each other (the handler's
// MaxStatelessRequests bounds them, http_stateless_test.go).
func TestStatelessRequestsAreNotBoundTogether(t *testing.T) {
	const bound = 1
	s, started, release := boundedServer(bound)
	defer s.Close()
	hs := NewHTTPServer(t, s, &HTTPOptions{Stateless: true, JSONResponse: true})
	c := newHTTPClient(t, hs)
	c.version = LatestProtocolVersion
	ctx, cancel := context.WithTimeout(t.Context(), safetyNet)
	defer cancel()
	results := make(chan string, bound+1)
	for range bound + 1 {
		body, _ := c.requestBody("tools/call", holdCall)
		go func() {
			_, got, err := postQuietly(ctx, c, body)
			results <- fmt.Sprint(got, err)
		}()
	}
	for range bound + 1 {
		select {
		case <-started:
		case got := <-results:
			t.Fatalf("a stateless request was answered before any was let go: %s", got)
		}
	}
	releaseHeld(t, release, results, bound+1, "a stateless call")
}
