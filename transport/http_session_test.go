package transport

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

const httpListResult = `{"jsonrpc":"2.0","id":%ID%,"result":{"tools":[]}}`

// httpIsReinit matches the transport's own repeated initialize.
func httpIsReinit(r *httpSeenReq) bool {
	return httpIsPOST("initialize")(r) && r.requestID().IsString() &&
		strings.HasPrefix(r.requestID().Raw().(string), "mcpwire-reinit-")
}

func httpWithSession(match func(*httpSeenReq) bool, sid string) func(*httpSeenReq) bool {
	return func(r *httpSeenReq) bool { return match(r) && r.Header.Get("Mcp-Session-Id") == sid }
}

// scriptRenewal scripts the transport's own handshake for a new session.
func httpScriptRenewal(srv *httpScript, newSID string) (reinit, reinited *httpStep) {
	reinit = srv.on("re-initialize", httpIsReinit, httpReplyJSON(200, httpInitResult, "Mcp-Session-Id", newSID))
	reinited = srv.on("initialized again", httpWithSession(httpIsPOST("notifications/initialized"), newSID), httpReplyStatus(http.StatusAccepted))
	return reinit, reinited
}

func TestHTTPSessionExpiredRenewsAndReplays(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, hooks := httpTestConfig(srv)
	renewed := make(chan struct{}, 2)
	cfg.OnSessionRenewed = func() { renewed <- struct{}{} }
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")

	srv.on("expired", httpWithSession(httpIsPOST("tools/list"), "sess-1"), httpReplyStatus(http.StatusNotFound))
	reinit := srv.on("re-initialize", httpIsReinit, httpReplySSE(nil, []httpEv{
		{data: `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello again"}}`},
		{data: httpInitResult},
	}, "Mcp-Session-Id", "sess-2"))
	reinited := srv.on("initialized again", httpWithSession(httpIsPOST("notifications/initialized"), "sess-2"), httpReplyStatus(http.StatusAccepted))
	replay := srv.on("replay", httpWithSession(httpIsPOST("tools/list"), "sess-2"), httpReplyJSON(200, httpListResult))

	list := httpRequest(t, 2, "tools/list", nil)
	httpWrite(t, s, list)
	if n, ok := httpRead(t, s).(*jsonrpc.Notification); !ok || n.Method != "notifications/message" {
		t.Fatalf("the renewal's notification was not passed on")
	}
	httpReadResponse(t, s, 2)

	r := httpWaitHit(t, reinit)
	httpAssertHeader(t, r, "Mcp-Session-Id", "")
	httpAssertHeader(t, r, "MCP-Protocol-Version", "")
	httpAssertHeader(t, r, "Authorization", httpTestToken)
	req, ok := r.Msg.(*jsonrpc.Request)
	if !ok || req.ID != jsonrpc.StringID("mcpwire-reinit-1") {
		t.Fatalf("re-initialize = %+v, want a request with id \"mcpwire-reinit-1\"", r.Msg)
	}
	orig := httpRequest(t, 1, "initialize", httpInitParams)
	if string(req.Params) != string(orig.Params) {
		t.Errorf("re-initialize params = %s, want the original %s", req.Params, orig.Params)
	}
	httpAssertHeader(t, httpWaitHit(t, reinited), "MCP-Protocol-Version", "2025-11-25")
	if got, want := string(httpWaitHit(t, replay).Body), httpEncode(t, list); got != want {
		t.Errorf("replayed body = %s, want %s", got, want)
	}
	if got := s.SessionID(); got != "sess-2" {
		t.Errorf("SessionID() = %q, want sess-2", got)
	}
	httpWaitClosed(t, func() chan struct{} { c := make(chan struct{}); go func() { <-renewed; close(c) }(); return c }(), "OnSessionRenewed")
	hooks.waitHook(t, "renewed")

	// The renewal's own initialize response never reaches Read.
	srv.on("ping", httpWithSession(httpIsPOST("ping"), "sess-2"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	httpWrite(t, s, httpRequest(t, 3, "ping", nil))
	httpReadResponse(t, s, 3)
}

func TestHTTPSessionExpiredToolsCall(t *testing.T) {
	for _, replay := range []bool{false, true} {
		name := "without opt-in"
		if replay {
			name = "with ReplayToolCalls"
		}
		t.Run(name, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			cfg.ReplayToolCalls = replay
			s := httpConnect(t, cfg)
			httpHandshake(t, srv, s, "sess-1")
			srv.on("expired", httpWithSession(httpIsPOST("tools/call"), "sess-1"), httpReplyStatus(http.StatusNotFound))
			httpScriptRenewal(srv, "sess-2")
			if replay {
				srv.on("replay", httpWithSession(httpIsPOST("tools/call"), "sess-2"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{"content":[]}}`))
			}
			err := s.Write(context.Background(), httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
			if replay {
				if err != nil {
					t.Fatalf("Write: %v", err)
				}
				httpReadResponse(t, s, 2)
			} else if nr := (*NotReplayedError)(nil); !errors.As(err, &nr) || nr.Method != "tools/call" || !errors.Is(err, ErrSessionExpired) || !strings.Contains(err.Error(), "not sent again") {
				t.Fatalf("Write = %v, want a NotReplayedError for tools/call wrapping ErrSessionExpired", err)
			}
			if got := s.SessionID(); got != "sess-2" {
				t.Errorf("SessionID() = %q, want sess-2", got)
			}
		})
	}
}

func TestHTTPSessionExpired400Quirk(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	srv.on("unknown session", httpWithSession(httpIsPOST("tools/list"), "sess-1"),
		httpReplyJSON(400, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`))
	httpScriptRenewal(srv, "sess-2")
	srv.on("replay", httpWithSession(httpIsPOST("tools/list"), "sess-2"), httpReplyJSON(200, httpListResult))
	httpWrite(t, s, httpRequest(t, 2, "tools/list", nil))
	httpReadResponse(t, s, 2)

	// Another -32000 400 is the call's error, not an expired session (the
	// script has no further initialize, so a renewal would fail the test).
	srv.on("bad version", httpIsPOST("ping"),
		httpReplyJSON(400, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Unsupported protocol version"},"id":null}`))
	httpWrite(t, s, httpRequest(t, 3, "ping", nil))
	if e := httpErrorResponse(t, httpRead(t, s), 3); !strings.Contains(e.Message, "Unsupported protocol version") {
		t.Errorf("error = %+v", e)
	}
}

func TestHTTP404WithoutSessionIsPlainError(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "") // a stateless server
	srv.on("404", httpIsPOST("tools/list"), httpReplyStatus(http.StatusNotFound))
	err := s.Write(context.Background(), httpRequest(t, 2, "tools/list", nil))
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 404 || errors.Is(err, ErrSessionExpired) {
		t.Fatalf("Write = %v, want a plain *HTTPError 404", err)
	}
}

func TestHTTPNotificationOnExpiredSession(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	srv.on("expired", httpWithSession(httpIsPOST("notifications/roots/list_changed"), "sess-1"), httpReplyStatus(http.StatusNotFound))
	httpScriptRenewal(srv, "sess-2")
	err := s.Write(context.Background(), httpNotification(t, "notifications/roots/list_changed", nil))
	if !errors.Is(err, ErrSessionExpired) {
		t.Fatalf("Write = %v, want ErrSessionExpired", err)
	}
	if got := s.SessionID(); got != "sess-2" {
		t.Errorf("SessionID() = %q, want sess-2", got)
	}
}

func TestHTTPConcurrentExpiryRenewsOnce(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	// Both requests are held until both arrived, so both carry sess-1.
	var arrived sync.WaitGroup
	arrived.Add(2)
	expire := func(w http.ResponseWriter, _ *httpSeenReq) {
		arrived.Done()
		arrived.Wait()
		w.WriteHeader(http.StatusNotFound)
	}
	srv.on("expired list", httpWithSession(httpIsPOST("tools/list"), "sess-1"), expire)
	srv.on("expired prompts", httpWithSession(httpIsPOST("prompts/list"), "sess-1"), expire)
	httpScriptRenewal(srv, "sess-2") // only one: a second renewal would be unexpected
	srv.on("replay list", httpWithSession(httpIsPOST("tools/list"), "sess-2"), httpReplyJSON(200, httpListResult))
	srv.on("replay prompts", httpWithSession(httpIsPOST("prompts/list"), "sess-2"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{"prompts":[]}}`))

	errc := make(chan error, 2)
	go func() { errc <- s.Write(context.Background(), httpRequest(t, 2, "tools/list", nil)) }()
	go func() { errc <- s.Write(context.Background(), httpRequest(t, 3, "prompts/list", nil)) }()
	for range 2 {
		if err := <-errc; err != nil {
			t.Fatalf("Write: %v", err)
		}
	}
	seen := map[jsonrpc.ID]bool{}
	for range 2 {
		r, ok := httpRead(t, s).(*jsonrpc.Response)
		if !ok || r.Error != nil {
			t.Fatalf("got %+v, want a result", r)
		}
		seen[r.ID] = true
	}
	if !seen[jsonrpc.Int64ID(2)] || !seen[jsonrpc.Int64ID(3)] {
		t.Errorf("responses for %v, want 2 and 3", seen)
	}
}

func TestHTTPSessionRenewalFailureIsTerminal(t *testing.T) {
	for _, tc := range []struct {
		name   string
		reinit func(http.ResponseWriter, *httpSeenReq)
		want   string
	}{
		{"HTTP error", httpReplyStatus(http.StatusInternalServerError), "500"},
		{"JSON-RPC error", httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"error":{"code":-32602,"message":"no"}}`), "no"},
		{"other version", httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{"protocolVersion":"2025-06-18"}}`, "Mcp-Session-Id", "sess-2"), "protocol version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			s := httpConnect(t, cfg)
			httpHandshake(t, srv, s, "sess-1")
			srv.on("expired", httpIsPOST("tools/list"), httpReplyStatus(http.StatusNotFound))
			srv.on("re-initialize", httpIsReinit, tc.reinit)
			err := s.Write(context.Background(), httpRequest(t, 2, "tools/list", nil))
			if !errors.Is(err, ErrSessionExpired) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write = %v, want ErrSessionExpired mentioning %q", err, tc.want)
			}
			if _, err := s.Read(context.Background()); !errors.Is(err, ErrSessionExpired) {
				t.Errorf("Read = %v, want the terminal ErrSessionExpired", err)
			}
			if err := s.Write(context.Background(), httpRequest(t, 3, "ping", nil)); !errors.Is(err, ErrSessionExpired) {
				t.Errorf("later Write = %v, want the terminal error", err)
			}
		})
	}
}

// Under the engine the stream pushes its messages (readmode.Pusher); when
// it ends by itself, here because the session could not be renewed, the
// connection ends with its error and every pending call fails.
func TestHTTPStreamEndEndsThePushedConn(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	srv.on("answer", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	c := jsonrpc.NewConn(s, jsonrpc.Options{})
	defer c.Close()
	if _, err := c.Call(context.Background(), "ping", nil, nil); err != nil {
		t.Fatalf("ping through the pushed stream: %v", err)
	}
	srv.on("expired", httpIsPOST("tools/list"), httpReplyStatus(http.StatusNotFound))
	srv.on("re-initialize", httpIsReinit, httpReplyStatus(http.StatusInternalServerError))
	if _, err := c.Call(context.Background(), "tools/list", nil, nil); !errors.Is(err, ErrSessionExpired) {
		t.Fatalf("call = %v, want ErrSessionExpired", err)
	}
	<-c.Done()
	if err := c.Err(); !errors.Is(err, jsonrpc.ErrClosed) || !errors.Is(err, ErrSessionExpired) {
		t.Fatalf("Err() = %v, want ErrClosed wrapping ErrSessionExpired", err)
	}
}
