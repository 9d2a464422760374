package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// Options.MaxInFlight reaches the server core: a host's request past it
// is refused with the busy error at once, and never reaches an upstream.
func TestMaxInFlightRefusesTheRequestPastIt(t *testing.T) {
	up, started, release := blockingUpstream()
	c := inProcess(t, map[string]*server.Server{"up": up}, &Options{MaxInFlight: 1})
	wantBusyPastBound(t, c, started, release, "server busy: 1 request already in flight")
}

// blockingUpstream is an upstream whose tool "block" sends to started,
// then waits for release (or its context).
func blockingUpstream() (up *server.Server, started, release chan struct{}) {
	up = server.NewServer(nil)
	started, release = make(chan struct{}, 2), make(chan struct{})
	up.AddTool(server.Tool{Name: "block"}, func(ctx context.Context, _ *server.ToolRequest) (*server.ToolResult, error) {
		started <- struct{}{}
		select {
		case <-release:
			return server.TextResult("done"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	return up, started, release
}

// wantBusyPastBound calls up__block (see blockingUpstream) through c,
// under a bound of one: the first call is held upstream, the second must
// be refused at once with the busy error saying want, without reaching
// the upstream. It then closes release, and the first call must succeed.
func wantBusyPastBound(t *testing.T, c *mcp.Client, started, release chan struct{}, want string) {
	t.Helper()
	held := make(chan error, 1)
	go func() {
		_, err := c.CallTool(t.Context(), "up__block", nil, nil)
		held <- err
	}()
	<-started
	second := make(chan error, 1)
	go func() {
		_, err := c.CallTool(t.Context(), "up__block", nil, nil)
		second <- err
	}()
	var err error
	select {
	case err = <-second:
	case <-started:
		close(release)
		<-held
		t.Fatalf("the call past the bound reached the upstream (it returned %v)", <-second)
	}
	// Inside a session the busy error is the request's answer; past the
	// endpoint's bound on stateless requests it is the body of a 503.
	var rpcErr *jsonrpc.Error
	var httpErr *transport.HTTPError
	if errors.As(err, &httpErr) && httpErr.StatusCode == http.StatusServiceUnavailable {
		rpcErr = httpErr.RPCError
	} else if !errors.As(err, &rpcErr) {
		rpcErr = nil
	}
	if rpcErr == nil || rpcErr.Code != server.CodeServerBusy || !strings.Contains(rpcErr.Message, want) {
		t.Fatalf("the call past the bound: %v, want the busy error", err)
	}
	close(release)
	if err := <-held; err != nil {
		t.Fatalf("the held call: %v", err)
	}
}

// Zero bounds are the defaults, negative ones none.
func TestHTTPOptionsBoundDefaults(t *testing.T) {
	for _, tc := range []struct {
		set      HTTPOptions
		idle     time.Duration
		sessions int
	}{
		{HTTPOptions{}, DefaultSessionIdleTimeout, DefaultMaxSessions},
		{HTTPOptions{SessionIdleTimeout: -1, MaxSessions: -1}, 0, 0},
		{HTTPOptions{SessionIdleTimeout: time.Minute, MaxSessions: 7}, time.Minute, 7},
	} {
		idle, sessions := tc.set.sessionBounds()
		if idle != tc.idle || sessions != tc.sessions {
			t.Errorf("%+v: idle %v, sessions %d; want %v, %d", tc.set, idle, sessions, tc.idle, tc.sessions)
		}
	}
}

// A gateway embedded with no options ends an idle HTTP session (its id
// then gets 404) once DefaultSessionIdleTimeout has passed: the library
// is bounded without the CLI's flags.
func TestHTTPSessionsExpireByDefault(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGateway(t, map[string]*server.Server{"up": server.NewDefault(nil)}, nil)
		h := g.Handler(nil)
		post := func(sid, body string) *httptest.ResponseRecorder {
			req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if sid != "" {
				req.Header.Set("Mcp-Session-Id", sid)
				req.Header.Set("MCP-Protocol-Version", "2025-06-18")
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			return w
		}
		w := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		sid := w.Header().Get("Mcp-Session-Id")
		if w.Code != http.StatusOK || sid == "" {
			t.Fatalf("initialize: %d %s", w.Code, w.Body)
		}
		if w := post(sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); w.Code != http.StatusAccepted {
			t.Fatalf("initialized: %d %s", w.Code, w.Body)
		}
		time.Sleep(DefaultSessionIdleTimeout + time.Second) // the bubble's clock
		synctest.Wait()
		if w := post(sid, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); w.Code != http.StatusNotFound {
			t.Fatalf("a request %v after the session went idle: %d %s, want 404", DefaultSessionIdleTimeout, w.Code, w.Body)
		}
	})
}
