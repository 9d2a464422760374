package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestHTTPJSONReplyHeadersAndSession(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)

	initStep := srv.on("initialize", httpIsPOST("initialize"), httpReplyJSON(200, httpInitResult, "Mcp-Session-Id", "sess-1"))
	initedStep := srv.on("initialized", httpIsPOST("notifications/initialized"), httpReplyStatus(http.StatusAccepted))
	listStep := srv.on("tools/list", httpIsPOST("tools/list"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{"tools":[]}}`))

	initReq := httpRequest(t, 1, "initialize", httpInitParams)
	httpWrite(t, s, initReq)
	if got := string(httpReadResponse(t, s, 1).Result); !strings.Contains(got, `"protocolVersion":"2025-11-25"`) {
		t.Errorf("initialize result = %s", got)
	}
	r := httpWaitHit(t, initStep)
	httpAssertHeader(t, r, "Accept", "application/json, text/event-stream")
	httpAssertHeader(t, r, "Content-Type", "application/json")
	httpAssertHeader(t, r, "Authorization", httpTestToken)
	httpAssertHeader(t, r, "X-Api-Key", "key-SECRET-456")
	httpAssertHeader(t, r, "Mcp-Session-Id", "")
	httpAssertHeader(t, r, "MCP-Protocol-Version", "")
	if got, want := string(r.Body), httpEncode(t, initReq); got != want {
		t.Errorf("initialize body = %s, want %s", got, want)
	}
	if got := s.SessionID(); got != "sess-1" {
		t.Errorf("SessionID() = %q, want sess-1", got)
	}

	s.SetProtocolVersion("2025-11-25")
	httpWrite(t, s, httpNotification(t, "notifications/initialized", nil))
	r = httpWaitHit(t, initedStep)
	httpAssertHeader(t, r, "Mcp-Session-Id", "sess-1")
	httpAssertHeader(t, r, "MCP-Protocol-Version", "2025-11-25")
	httpAssertHeader(t, r, "Accept", "application/json, text/event-stream")
	httpAssertHeader(t, r, "Authorization", httpTestToken)

	httpWrite(t, s, httpRequest(t, 2, "tools/list", nil))
	if got := string(httpReadResponse(t, s, 2).Result); got != `{"tools":[]}` {
		t.Errorf("tools/list result = %s", got)
	}
	r = httpWaitHit(t, listStep)
	httpAssertHeader(t, r, "Mcp-Session-Id", "sess-1")
	httpAssertHeader(t, r, "MCP-Protocol-Version", "2025-11-25")
}

func TestHTTPProtocolVersionHeader(t *testing.T) {
	for _, tc := range []struct{ version, want string }{
		{"", ""},
		{"2025-03-26", ""}, // the header came with 2025-06-18
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
	} {
		t.Run("v"+tc.version, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			s := httpConnect(t, cfg)
			s.SetProtocolVersion(tc.version)
			// Even with a version set, initialize never carries it.
			initStep := srv.on("initialize", httpIsPOST("initialize"), httpReplyJSON(200, httpInitResult))
			pingStep := srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
			httpWrite(t, s, httpRequest(t, 1, "initialize", httpInitParams))
			httpReadResponse(t, s, 1)
			httpWrite(t, s, httpRequest(t, 2, "ping", nil))
			httpReadResponse(t, s, 2)
			httpAssertHeader(t, httpWaitHit(t, initStep), "MCP-Protocol-Version", "")
			httpAssertHeader(t, httpWaitHit(t, pingStep), "MCP-Protocol-Version", tc.want)
		})
	}
}

func TestHTTPBatchReply(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200,
		`[{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}},{"jsonrpc":"2.0","id":%ID%,"result":{}}]`))
	httpWrite(t, s, httpRequest(t, 4, "ping", nil))
	if n, ok := httpRead(t, s).(*jsonrpc.Notification); !ok || n.Method != "notifications/message" {
		t.Fatalf("first message is not the batched notification")
	}
	httpReadResponse(t, s, 4)
}

func TestHTTPSSEReplyWithServerMessages(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")

	released := make(chan struct{})
	srv.on("tools/call", httpIsPOST("tools/call"), httpReplySSE(released, []httpEv{
		{id: "p1"}, // priming: an id and no data
		{id: "p2", data: `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`},
		{id: "p3", data: `{"jsonrpc":"2.0","id":"srv-7","method":"elicitation/create","params":{"message":"?"}}`},
		{id: "p4", data: `{"jsonrpc":"2.0","id":%ID%,"result":{"content":[]}}`},
	}))
	answer := srv.on("answer", httpIsPOST("response"), httpReplyStatus(http.StatusAccepted))

	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
	if n, ok := httpRead(t, s).(*jsonrpc.Notification); !ok || n.Method != "notifications/progress" {
		t.Fatalf("first message is not the progress notification")
	}
	req, ok := httpRead(t, s).(*jsonrpc.Request)
	if !ok || req.Method != "elicitation/create" || req.ID != jsonrpc.StringID("srv-7") {
		t.Fatalf("second message is not the server's elicitation request: %+v", req)
	}
	httpReadResponse(t, s, 2)
	// After the response the transport lets go of the stream.
	httpWaitClosed(t, released, "closing the reply stream after its response")

	resp := httpMust(jsonrpc.NewResponse(req.ID, map[string]any{"action": "decline"}, nil))
	httpWrite(t, s, resp)
	if got, want := string(httpWaitHit(t, answer).Body), httpEncode(t, resp); got != want {
		t.Errorf("answer body = %s, want %s", got, want)
	}
}

func TestHTTPNotificationStatuses(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(http.ResponseWriter, *httpSeenReq)
	}{
		{"202", httpReplyStatus(http.StatusAccepted)},
		{"204", httpReplyStatus(http.StatusNoContent)},
		{"200 with a JSON body", httpReplyJSON(200, `{"jsonrpc":"2.0","id":null,"result":{}}`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			s := httpConnect(t, cfg)
			srv.on("note", httpIsPOST("notifications/roots/list_changed"), tc.reply)
			httpWrite(t, s, httpNotification(t, "notifications/roots/list_changed", nil))
			// Nothing from the body may reach Read: the next thing is ping's.
			srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
			httpWrite(t, s, httpRequest(t, 9, "ping", nil))
			httpReadResponse(t, s, 9)
		})
	}
	t.Run("400", func(t *testing.T) {
		srv := newHTTPScript(t)
		cfg, _, _ := httpTestConfig(srv)
		s := httpConnect(t, cfg)
		srv.on("note", httpIsPOST("notifications/roots/list_changed"), httpReplyJSON(400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"nope"}}`))
		err := s.Write(context.Background(), httpNotification(t, "notifications/roots/list_changed", nil))
		var he *HTTPError
		if !errors.As(err, &he) || he.StatusCode != 400 {
			t.Fatalf("Write = %v, want an *HTTPError with status 400", err)
		}
	})
}

func TestHTTPServerErrorFailsOneCall(t *testing.T) {
	for _, code := range []int{http.StatusServiceUnavailable, http.StatusTooManyRequests, http.StatusInternalServerError} {
		t.Run(http.StatusText(code), func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			s := httpConnect(t, cfg)
			srv.on("failing call", httpIsPOST("tools/call"), func(w http.ResponseWriter, _ *httpSeenReq) {
				http.Error(w, "overloaded", code)
			})
			err := s.Write(context.Background(), httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
			var he *HTTPError
			if !errors.As(err, &he) || he.StatusCode != code || he.Method != "POST" {
				t.Fatalf("Write = %v, want an *HTTPError POST %d", err, code)
			}
			srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
			httpWrite(t, s, httpRequest(t, 3, "ping", nil))
			httpReadResponse(t, s, 3)
		})
	}
}

func TestHTTPJSONRPCErrorBodyOn4xx(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("bad call", httpIsPOST("tools/call"), httpReplyJSON(400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"bad params"}}`))
	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
	if e := httpErrorResponse(t, httpRead(t, s), 2); e.Code != -32602 || e.Message != "bad params" {
		t.Errorf("error = %+v, want the server's -32602", e)
	}

	// 401 stays an *HTTPError even with a JSON-RPC body: the
	// authorization layer needs its status and WWW-Authenticate.
	srv.on("unauthorized", httpIsPOST("tools/list"), httpReplyJSON(401, `{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"auth"}}`,
		"WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`))
	err := s.Write(context.Background(), httpRequest(t, 3, "tools/list", nil))
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 401 || !strings.Contains(he.WWWAuthenticate, "resource_metadata") {
		t.Fatalf("Write = %v, want an *HTTPError 401 with WWW-Authenticate", err)
	}

	// So does 405, which tells a probing client to try legacy SSE.
	srv.on("not allowed", httpIsPOST("initialize"), httpReplyJSON(405, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Method not allowed."}}`))
	err = s.Write(context.Background(), httpRequest(t, 4, "initialize", httpInitParams))
	if !errors.As(err, &he) || he.StatusCode != 405 || he.RPCError == nil {
		t.Fatalf("Write = %v, want an *HTTPError 405 keeping the JSON-RPC error", err)
	}

	// And 429 and 503, a server too busy for now: a client probing for
	// the protocol's era must not take them for the server's answer.
	for i, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		method := []string{"prompts/list", "resources/list"}[i]
		srv.on("busy", httpIsPOST(method), httpReplyJSON(status, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"server busy"}}`))
		err = s.Write(context.Background(), httpRequest(t, int64(5+i), method, nil))
		if !errors.As(err, &he) || he.StatusCode != status || he.RPCError == nil || he.RPCError.Message != "server busy" {
			t.Fatalf("Write = %v, want an *HTTPError %d keeping the JSON-RPC error", err, status)
		}
	}
}

func TestHTTPBadJSONReplies(t *testing.T) {
	for _, tc := range []struct {
		name     string
		body     string
		maxBody  int64
		wantCode int64
		wantMsg  string
	}{
		{"not JSON", `<html>oops</html>`, 0, jsonrpc.CodeParseError, "not a valid JSON-RPC message"},
		{"not JSON-RPC", `{"hello":1}`, 0, jsonrpc.CodeParseError, "not a valid JSON-RPC message"},
		{"too large", `{"jsonrpc":"2.0","id":%ID%,"result":{"big":"xxxxxxxxxxxxxxxxxxxxxxxxxxxx"}}`, 32, codeTransportError, "limit of 32 bytes"},
		{"no response for the request", `{"jsonrpc":"2.0","method":"notifications/message","params":{}}`, 0, codeTransportError, "carried no response"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			cfg.MaxBodySize = tc.maxBody
			s := httpConnect(t, cfg)
			srv.on("call", httpIsPOST("tools/list"), httpReplyJSON(200, tc.body))
			httpWrite(t, s, httpRequest(t, 2, "tools/list", nil))
			m := httpRead(t, s)
			if _, ok := m.(*jsonrpc.Notification); ok {
				m = httpRead(t, s)
			}
			e := httpErrorResponse(t, m, 2)
			if e.Code != tc.wantCode || !strings.Contains(e.Message, tc.wantMsg) || !strings.Contains(e.Message, "tools/list") {
				t.Errorf("error = %d %q, want code %d mentioning %q and tools/list", e.Code, e.Message, tc.wantCode, tc.wantMsg)
			}
		})
	}
}

func TestHTTPUnusableReplyToRequest(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("call", httpIsPOST("tools/list"), func(w http.ResponseWriter, _ *httpSeenReq) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("hello"))
	})
	err := s.Write(context.Background(), httpRequest(t, 2, "tools/list", nil))
	if err == nil || !strings.Contains(err.Error(), `Content-Type "text/plain"`) {
		t.Fatalf("Write = %v, want an error naming the Content-Type", err)
	}
	srv.on("accepted", httpIsPOST("ping"), httpReplyStatus(http.StatusAccepted))
	if err := s.Write(context.Background(), httpRequest(t, 3, "ping", nil)); err == nil {
		t.Fatal("Write of a request answered 202 without a body succeeded")
	}
}

func TestHTTPInvalidSessionIDRejected(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("initialize", httpIsPOST("initialize"), httpReplyJSON(200, httpInitResult, "Mcp-Session-Id", "bad id\twith-SECRET"))
	err := s.Write(context.Background(), httpRequest(t, 1, "initialize", httpInitParams))
	if err == nil || !strings.Contains(err.Error(), "Mcp-Session-Id") || strings.Contains(err.Error(), "SECRET") {
		t.Fatalf("Write = %v, want an error naming the header but not its value", err)
	}
}

// A Write gives up when its ctx ends: while the POST waits for the reply
// headers, and while a JSON reply's body is still coming (the POST runs on
// the writer's goroutine and reads a JSON reply there). The server sees
// the request abandoned, and nothing is delivered for the call.
func TestHTTPWriteHonoursContext(t *testing.T) {
	for name, sent := range map[string]string{
		"before the headers": "",
		"during the body":    `{"jsonrpc":"2.0","id":2,"res`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			s := httpConnect(t, cfg)
			gone := make(chan struct{})
			step := srv.on("slow", httpIsPOST("tools/list"), func(w http.ResponseWriter, r *httpSeenReq) {
				if sent != "" {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusOK)
					io.WriteString(w, sent)
					w.(http.Flusher).Flush()
				}
				<-r.r.Context().Done()
				close(gone)
			})
			ctx, cancel := context.WithCancel(context.Background())
			errc := make(chan error, 1)
			go func() { errc <- s.Write(ctx, httpRequest(t, 2, "tools/list", nil)) }()
			httpWaitHit(t, step)
			cancel()
			if err := httpWaitErr(t, errc, "Write"); !errors.Is(err, context.Canceled) {
				t.Fatalf("Write = %v, want context.Canceled", err)
			}
			httpWaitClosed(t, gone, "abandoning the POST")
			srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
			httpWrite(t, s, httpRequest(t, 3, "ping", nil))
			httpReadResponse(t, s, 3) // not a synthesized failure of call 2
		})
	}
}

// Close stops a Write that waits for its reply, and the Write says the
// stream was closed.
func TestHTTPCloseStopsAWaitingWrite(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	gone := make(chan struct{})
	step := srv.on("slow", httpIsPOST("tools/list"), func(w http.ResponseWriter, r *httpSeenReq) {
		<-r.r.Context().Done()
		close(gone)
	})
	errc := make(chan error, 1)
	go func() { errc <- s.Write(context.Background(), httpRequest(t, 2, "tools/list", nil)) }()
	httpWaitHit(t, step)
	closed := make(chan struct{})
	go func() {
		s.Close()
		close(closed)
	}()
	if err := httpWaitErr(t, errc, "Write"); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Write = %v, want jsonrpc.ErrClosed", err)
	}
	httpWaitClosed(t, closed, "Close")
	httpWaitClosed(t, gone, "abandoning the POST")
}

// A Write whose ctx already ended sends nothing, and the stream goes on.
func TestHTTPWriteWithEndedContextSendsNothing(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, m := range []jsonrpc.Message{httpRequest(t, 2, "tools/list", nil), httpNotification(t, "notifications/progress", nil)} {
		if err := s.Write(ctx, m); !errors.Is(err, context.Canceled) {
			t.Fatalf("Write = %v, want context.Canceled", err)
		}
	}
	srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	httpWrite(t, s, httpRequest(t, 3, "ping", nil))
	httpReadResponse(t, s, 3)
	if got := srv.requestOrder(); len(got) != 1 {
		t.Errorf("requests %v, want the ping alone", got)
	}
}

func TestHTTPCancelledNotificationClosesStream(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	released := make(chan struct{})
	srv.on("long call", httpIsPOST("tools/call"), httpReplySSE(released, []httpEv{{id: "1"}}))
	cancelStep := srv.on("cancelled", httpIsPOST("notifications/cancelled"), httpReplyStatus(http.StatusAccepted))
	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "slow"}))
	httpWrite(t, s, httpNotification(t, "notifications/cancelled", map[string]any{"requestId": 2, "reason": "timeout"}))
	httpWaitHit(t, cancelStep)
	httpWaitClosed(t, released, "closing the cancelled call's stream")
	// The cancelled call gets no synthesized failure: next is ping's reply.
	srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	httpWrite(t, s, httpRequest(t, 3, "ping", nil))
	httpReadResponse(t, s, 3)
}

func TestHTTPCrossOriginRedirectDropsSecrets(t *testing.T) {
	other := newHTTPScript(t)
	otherStep := other.on("redirected ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))

	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	sameStep := srv.on("same-origin target", func(r *httpSeenReq) bool {
		return r.r.URL.Path == "/mcp2" && r.rpcMethod() == "ping"
	}, httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	srv.on("same-origin redirect", func(r *httpSeenReq) bool {
		return r.r.URL.Path == "/mcp" && r.rpcMethod() == "ping" && r.requestID() == jsonrpc.Int64ID(2)
	}, func(w http.ResponseWriter, r *httpSeenReq) {
		http.Redirect(w, r.r, "/mcp2", http.StatusTemporaryRedirect)
	})
	srv.on("cross-origin redirect", func(r *httpSeenReq) bool {
		return r.r.URL.Path == "/mcp" && r.rpcMethod() == "ping" && r.requestID() == jsonrpc.Int64ID(3)
	}, func(w http.ResponseWriter, r *httpSeenReq) {
		http.Redirect(w, r.r, other.URL(), http.StatusTemporaryRedirect)
	})

	httpWrite(t, s, httpRequest(t, 2, "ping", nil))
	httpReadResponse(t, s, 2)
	r := httpWaitHit(t, sameStep)
	httpAssertHeader(t, r, "Authorization", httpTestToken)
	httpAssertHeader(t, r, "X-Api-Key", "key-SECRET-456")
	httpAssertHeader(t, r, "Mcp-Session-Id", "sess-1")

	httpWrite(t, s, httpRequest(t, 3, "ping", nil))
	httpReadResponse(t, s, 3)
	r = httpWaitHit(t, otherStep)
	httpAssertHeader(t, r, "Authorization", "")
	httpAssertHeader(t, r, "X-Api-Key", "")
	httpAssertHeader(t, r, "Mcp-Session-Id", "")
	httpAssertHeader(t, r, "Accept", "application/json, text/event-stream")
}

func TestHTTPCustomClientKeepsRedirectGuard(t *testing.T) {
	other := newHTTPScript(t)
	otherStep := other.on("redirected ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	srv := newHTTPScript(t)
	srv.on("redirect", httpIsPOST("ping"), func(w http.ResponseWriter, r *httpSeenReq) {
		http.Redirect(w, r.r, other.URL(), http.StatusTemporaryRedirect)
	})
	cfg, _, _ := httpTestConfig(srv)
	userChecked := false
	cfg.HTTPClient = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		userChecked = true
		return nil
	}}
	s := httpConnect(t, cfg)
	httpWrite(t, s, httpRequest(t, 2, "ping", nil))
	httpReadResponse(t, s, 2)
	httpAssertHeader(t, httpWaitHit(t, otherStep), "Authorization", "")
	if !userChecked {
		t.Error("the client's own CheckRedirect was not called")
	}
}

func TestHTTPCloseSendsDelete(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, hooks := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	del := srv.on("DELETE", httpIsDELETE, httpReplyStatus(http.StatusMethodNotAllowed))
	released := make(chan struct{})
	srv.on("open call", httpIsPOST("tools/call"), httpReplySSE(released, []httpEv{{id: "1"}}))
	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))

	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	httpWaitClosed(t, released, "closing open reply streams on Close")
	r := httpWaitHit(t, del)
	httpAssertHeader(t, r, "Mcp-Session-Id", "sess-1")
	httpAssertHeader(t, r, "Authorization", httpTestToken)
	httpAssertHeader(t, r, "MCP-Protocol-Version", "2025-11-25")
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if n := httpCountRequests(srv, "DELETE"); n != 1 {
		t.Errorf("%d DELETEs, want 1", n)
	}
	if _, err := s.Read(context.Background()); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Read after Close = %v, want ErrClosed", err)
	}
	if err := s.Write(context.Background(), httpRequest(t, 3, "ping", nil)); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
	if errs := hooks.all(); len(errs) != 0 {
		t.Errorf("a 405 to DELETE was reported: %v", errs)
	}
}

func TestHTTPCloseReportsFailedDelete(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, hooks := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	srv.on("DELETE", httpIsDELETE, httpReplyStatus(http.StatusInternalServerError))
	s.Close()
	hooks.waitHook(t, "DELETE")
}

func TestHTTPCloseWithoutSessionSendsNothing(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "")
	s.Close()
	for _, r := range srv.requestOrder() {
		if r == "DELETE" {
			t.Errorf("DELETE sent without a session: %v", srv.requestOrder())
		}
	}
}

func httpCountRequests(srv *httpScript, label string) int {
	n := 0
	for _, r := range srv.requestOrder() {
		if r == label {
			n++
		}
	}
	return n
}

func TestHTTPConnectValidates(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  StreamableHTTP
		want string
	}{
		{"empty", StreamableHTTP{}, "needs a URL"},
		{"scheme", StreamableHTTP{URL: "ftp://127.0.0.1/x"}, "scheme"},
		{"no host", StreamableHTTP{URL: "http:///x"}, "no host"},
		{"header", StreamableHTTP{URL: "http://127.0.0.1/", Headers: http.Header{"X-K": {"a\r\nb"}}}, `"X-K"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.cfg.Connect(context.Background())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Connect = %v, want an error containing %s", err, tc.want)
			}
		})
	}
}

func TestHTTPNoSecretsInErrors(t *testing.T) {
	secrets := []string{"pw-SECRET", "query-SECRET", "tok-SECRET", "key-SECRET", "sess-SECRET"}
	srv := newHTTPScript(t)
	cfg, _, hooks := httpTestConfig(srv)
	cfg.URL = strings.Replace(srv.URL(), "http://", "http://user:pw-SECRET@", 1) + "?api_key=query-SECRET"
	cfg.DisableListener = false
	s := httpConnect(t, cfg)
	srv.on("initialize", httpIsPOST("initialize"), httpReplyJSON(200, httpInitResult, "Mcp-Session-Id", "sess-SECRET"))
	srv.on("initialized", httpIsPOST("notifications/initialized"), httpReplyStatus(http.StatusAccepted))
	srv.on("listener", httpIsGET(""), httpReplyStatus(http.StatusForbidden))
	srv.on("500", httpIsPOST("tools/list"), func(w http.ResponseWriter, _ *httpSeenReq) { http.Error(w, "boom", 500) })
	srv.on("stream without id", httpIsPOST("tools/call"), httpReplySSE(nil, nil))
	srv.on("expired", httpIsPOST("ping"), httpReplyStatus(http.StatusNotFound))
	srv.on("re-init fails", httpIsReinit, httpReplyStatus(http.StatusBadGateway))

	var errs []string
	httpWrite(t, s, httpRequest(t, 1, "initialize", httpInitParams))
	httpReadResponse(t, s, 1)
	httpWrite(t, s, httpNotification(t, "notifications/initialized", nil))
	errs = append(errs, hooks.waitHook(t, "listener").Error())
	errs = append(errs, s.Write(context.Background(), httpRequest(t, 2, "tools/list", nil)).Error())
	httpWrite(t, s, httpRequest(t, 3, "tools/call", map[string]any{"name": "x"}))
	errs = append(errs, httpErrorResponse(t, httpRead(t, s), 3).Message)
	err := s.Write(context.Background(), httpRequest(t, 4, "ping", nil))
	if !errors.Is(err, ErrSessionExpired) {
		t.Fatalf("Write after a failed renewal = %v, want ErrSessionExpired", err)
	}
	errs = append(errs, err.Error())
	_, err = s.Read(context.Background())
	errs = append(errs, err.Error())
	srv.srv.Close() // a network error now
	s2 := httpConnect(t, cfg)
	errs = append(errs, s2.Write(context.Background(), httpRequest(t, 1, "initialize", httpInitParams)).Error())
	for _, e := range hooks.all() {
		errs = append(errs, e.Error())
	}
	for _, e := range errs {
		for _, sec := range secrets {
			if strings.Contains(e, sec) {
				t.Errorf("error text leaks %s: %s", sec, e)
			}
		}
	}
	if len(errs) < 7 {
		t.Errorf("only %d errors checked", len(errs))
	}
}

// ExampleStreamableHTTP connects to an MCP endpoint and sends one request;
// a jsonrpc.Conn normally drives the stream.
func ExampleStreamableHTTP() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{}}`))
	}))
	defer srv.Close()

	t := &StreamableHTTP{URL: srv.URL + "/mcp", Headers: http.Header{"Authorization": {"Bearer example"}}}
	stream, err := t.Connect(context.Background())
	if err != nil {
		panic(err)
	}
	defer stream.Close()
	ping, _ := jsonrpc.NewRequest(jsonrpc.Int64ID(1), "ping", nil)
	if err := stream.Write(context.Background(), ping); err != nil {
		panic(err)
	}
	msg, _ := stream.Read(context.Background())
	resp := msg.(*jsonrpc.Response)
	fmt.Println(resp.ID, string(resp.Result))
	// Output: 1 {}
}

// An error without an id on a POST that carried one request is that
// request's error; without the id the call would wait in vain.
func TestHTTPIDLessErrorReplyGetsTheRequestID(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(http.ResponseWriter, *httpSeenReq)
	}{
		{"JSON", httpReplyJSON(200, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"unreadable"}}`)},
		{"SSE", httpReplySSE(nil, []httpEv{{data: `{"jsonrpc":"2.0","error":{"code":-32600,"message":"unreadable"}}`}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			s := httpConnect(t, cfg)
			srv.on("call", httpIsPOST("tools/list"), tc.reply)
			httpWrite(t, s, httpRequest(t, 2, "tools/list", nil))
			if e := httpErrorResponse(t, httpRead(t, s), 2); e.Code != -32600 || e.Message != "unreadable" {
				t.Errorf("error = %+v, want the server's own", e)
			}
		})
	}
}
