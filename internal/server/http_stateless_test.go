package server

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// statelessEra is one way a request is served by a one-request session:
// the handler's Stateless mode, or the 2026-07-28 revision.
type statelessEra struct {
	name string
	opts HTTPOptions
	// call is the body and headers of a tools/call of the "hold" tool.
	call func(c *httpClient) (string, jsonrpc.ID, map[string]string)
	// note is a notification's body and headers: never refused.
	note    string
	noteHdr map[string]string
}

var statelessEras = []statelessEra{
	{
		name: "Stateless option",
		opts: HTTPOptions{Stateless: true},
		call: func(c *httpClient) (string, jsonrpc.ID, map[string]string) {
			body, id := c.requestBody("tools/call", holdCall)
			return body, id, map[string]string{"MCP-Protocol-Version": LatestProtocolVersion}
		},
		note:    `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		noteHdr: map[string]string{"MCP-Protocol-Version": LatestProtocolVersion},
	},
	{
		name: ModernProtocolVersion,
		call: func(c *httpClient) (string, jsonrpc.ID, map[string]string) {
			body, id := c.requestBody("tools/call", withMeta(holdCall, modernMeta(nil)))
			return body, id, map[string]string{"MCP-Protocol-Version": ModernProtocolVersion, "Mcp-Method": "tools/call", "Mcp-Name": "hold"}
		},
		note:    `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1}}`,
		noteHdr: map[string]string{"MCP-Protocol-Version": ModernProtocolVersion, "Mcp-Method": "notifications/progress"},
	},
}

// statelessBoundServer serves s's handler under opts with bound places
// for stateless requests; returned gets a value each time the handler's
// ServeHTTP has returned.
func statelessBoundServer(t *testing.T, s *Server, opts HTTPOptions, bound int) (c *httpClient, returned chan struct{}) {
	opts.MaxStatelessRequests = bound
	h := s.StreamableHTTPHandler(&opts)
	returned = make(chan struct{}, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r)
		returned <- struct{}{}
	}))
	t.Cleanup(func() {
		h.Close()
		ts.Close()
	})
	return &httpClient{t: t, url: ts.URL, hc: ts.Client()}, returned
}

// sendQuietly POSTs body with the usual headers and hdr from any
// goroutine: the reply's body, or the error.
func sendQuietly(ctx context.Context, c *httpClient, body string, hdr map[string]string) string {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, strings.NewReader(body))
	if err != nil {
		return err.Error()
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return fmt.Sprint(resp.Status, " ", string(b), err)
}

// hold sends a call of "hold" from a goroutine and waits until its
// handler runs; the reply goes to results once the call ends.
func hold(t *testing.T, ctx context.Context, c *httpClient, era statelessEra, started <-chan string, results chan string) {
	t.Helper()
	body, _, hdr := era.call(c)
	go func() { results <- sendQuietly(ctx, c, body, hdr) }()
	select {
	case <-started:
	case got := <-results:
		t.Fatalf("a stateless call was answered before it was let go: %s", got)
	}
}

// wantStatelessBusy sends a call of "hold", which must be answered at
// once with the endpoint's busy error under bound, without running.
func wantStatelessBusy(t *testing.T, c *httpClient, era statelessEra, bound int, started <-chan string) {
	t.Helper()
	body, id, hdr := era.call(c)
	resp := c.do(http.MethodPost, body, hdr)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("the request past the bound: %s, Retry-After %q, %s; want 503, Retry-After 1 and a JSON-RPC error", resp.Status, resp.Header.Get("Retry-After"), resp.Header.Get("Content-Type"))
	}
	r, _ := decodeMessageOrFail(t, []byte(readAll(resp))).(*jsonrpc.Response)
	what := fmt.Sprintf("%d stateless requests", bound)
	if bound == 1 {
		what = "1 stateless request"
	}
	want := "server busy: " + what + " already in flight at this endpoint (its bound)"
	if r == nil || r.ID != id || r.Error == nil || r.Error.Code != CodeServerBusy || !strings.Contains(r.Error.Message, want) {
		t.Fatalf("want error %d %q for %s, got %#v", CodeServerBusy, want, id, r)
	}
	select {
	case <-started:
		t.Fatal("the request past the bound ran")
	default:
	}
}

// A handler serves at most MaxStatelessRequests one-request sessions at
// once: the request past them is answered at once with the busy error and
// never runs, a notification is still taken, and once a call ends its
// place serves a new one.
func TestStatelessRequestsBoundedPerEndpoint(t *testing.T) {
	for _, era := range statelessEras {
		t.Run(era.name, func(t *testing.T) {
			const bound = 2
			s, started, release := boundedServer(-1)
			defer s.Close()
			c, _ := statelessBoundServer(t, s, era.opts, bound)
			ctx, cancel := context.WithTimeout(t.Context(), safetyNet)
			defer cancel()
			results := make(chan string, bound+1)
			for range bound {
				hold(t, ctx, c, era, started, results)
			}
			wantStatelessBusy(t, c, era, bound, started)
			if resp := c.do(http.MethodPost, era.note, era.noteHdr); resp.StatusCode != http.StatusAccepted {
				t.Errorf("a notification while the endpoint is full: %s, want 202", resp.Status)
			}

			release <- struct{}{}
			if got := <-results; !strings.Contains(got, "released") {
				t.Fatalf("a held call: %s", got)
			}
			hold(t, ctx, c, era, started, results) // in the place it left
			releaseHeld(t, release, results, bound, "a held call")
		})
	}
}

// A place is given back however its request ends: refused, or left by
// its client before the answer.
func TestStatelessPlaceFreedWhenClientLeaves(t *testing.T) {
	for _, era := range statelessEras {
		t.Run(era.name, func(t *testing.T) {
			s, started, release := boundedServer(-1)
			defer s.Close()
			c, returned := statelessBoundServer(t, s, era.opts, 1)
			ctx, cancel := context.WithTimeout(t.Context(), safetyNet)
			defer cancel()
			results := make(chan string, 2)
			leaving, leave := context.WithCancel(ctx)
			hold(t, leaving, c, era, started, results)
			wantStatelessBusy(t, c, era, 1, started)
			<-returned // the refused request's
			leave()
			if got := <-results; !strings.Contains(got, "context canceled") {
				t.Fatalf("the call whose client left: %s", got)
			}
			<-returned // the held request's: its place is free
			hold(t, ctx, c, era, started, results)
			release <- struct{}{}
			if got := <-results; !strings.Contains(got, "released") {
				t.Fatalf("the call after: %s", got)
			}
		})
	}
}

// Zero is DefaultMaxStatelessRequests, a negative value no bound.
func TestStatelessBoundDefault(t *testing.T) {
	for _, tc := range []struct{ set, want int }{{0, DefaultMaxStatelessRequests}, {-1, 0}, {3, 3}} {
		h := NewServer(nil).StreamableHTTPHandler(&HTTPOptions{MaxStatelessRequests: tc.set})
		if got := h.stateless.bound; got != tc.want {
			t.Errorf("MaxStatelessRequests %d: bound %d, want %d", tc.set, got, tc.want)
		}
	}
	if got := NewServer(nil).StreamableHTTPHandler(nil).stateless.bound; got != DefaultMaxStatelessRequests {
		t.Errorf("no options: bound %d, want %d", got, DefaultMaxStatelessRequests)
	}
}
