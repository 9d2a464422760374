package transport

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The engine over this transport: a call whose SSE reply carries a server
// request that the engine's handler answers with a new POST, after which
// the server finishes the call on the same stream.
func TestHTTPWithConnServerRequestMidCall(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	answered := make(chan struct{})
	srv.on("tools/call", httpIsPOST("tools/call"), func(w http.ResponseWriter, r *httpSeenReq) {
		w.Header().Set("Content-Type", "text/event-stream")
		sw := sse.NewWriter(w)
		sw.WriteEvent(sse.Event{ID: "1", HasID: true, Data: []byte(`{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"sure?"}}`)})
		select {
		case <-answered:
		case <-r.r.Context().Done():
			return
		}
		sw.WriteEvent(sse.Event{ID: "2", HasID: true, Data: []byte(httpWithID(`{"jsonrpc":"2.0","id":%ID%,"result":{"content":[{"type":"text","text":"done"}]}}`, r))})
	})
	answer := srv.on("answer", httpIsPOST("response"), func(w http.ResponseWriter, _ *httpSeenReq) {
		w.WriteHeader(http.StatusAccepted)
		close(answered)
	})

	conn := jsonrpc.NewConn(s, jsonrpc.Options{Handler: func(_ context.Context, _ *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
		return map[string]any{"action": "accept"}, nil
	}})
	defer conn.Close()
	res, err := conn.Call(context.Background(), "tools/call", map[string]any{"name": "x"}, nil)
	if err != nil {
		t.Fatalf("Call: %v", err)
	}
	if !strings.Contains(string(res), "done") {
		t.Errorf("result = %s", res)
	}
	if body := string(httpWaitHit(t, answer).Body); body != `{"jsonrpc":"2.0","id":"e1","result":{"action":"accept"}}` {
		t.Errorf("answer = %s", body)
	}
}

// A call that gives up sends notifications/cancelled, and that closes the
// call's reply stream; the connection goes on.
func TestHTTPWithConnCancellationClosesStream(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	released := make(chan struct{})
	slow := srv.on("slow call", httpIsPOST("tools/call"), httpReplySSE(released, []httpEv{{id: "1"}}))
	cancelled := srv.on("cancelled", httpIsPOST("notifications/cancelled"), httpReplyStatus(http.StatusAccepted))
	conn := jsonrpc.NewConn(s, jsonrpc.Options{})
	defer conn.Close()

	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := conn.Call(ctx, "tools/call", map[string]any{"name": "slow"}, &jsonrpc.CallOptions{Timeout: jsonrpc.NoTimeout})
		errc <- err
	}()
	// Cancel once the server has the POST; whether Write is still waiting
	// for the reply headers or the stream is open, the engine sends
	// notifications/cancelled and the stream goes away.
	httpWaitHit(t, slow)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Call = %v, want context.Canceled", err)
	}
	if body := string(httpWaitHit(t, cancelled).Body); !strings.Contains(body, `"requestId":1`) {
		t.Errorf("cancel notification = %s", body)
	}
	httpWaitClosed(t, released, "closing the cancelled call's stream")

	srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	if _, err := conn.Call(context.Background(), "ping", nil, nil); err != nil {
		t.Fatalf("ping after the cancellation: %v", err)
	}
}

// A server whose SSE reply holds an invalid response to the call (here
// without "jsonrpc", as sloppy servers write it) and then stays open: the
// call fails at once with what is wrong, not at its deadline, and its
// reply stream is closed, not read (or resumed) for ever.
func TestHTTPWithConnInvalidResponseOnStream(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	closed := make(chan struct{})
	// The frame echoes the token the request carried: the call's error
	// must not show it.
	srv.on("tools/list", httpIsPOST("tools/list"), httpReplySSE(closed, []httpEv{{id: "1", data: `{"id":%ID%,"result":{"echo":"` + httpTestToken + `"}}`}}))
	conn := jsonrpc.NewConn(s, jsonrpc.Options{})
	defer conn.Close()
	// The timeout only bounds a failing test.
	_, err := conn.Call(context.Background(), "tools/list", nil, &jsonrpc.CallOptions{Timeout: time.Minute})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeParseError || !strings.Contains(err.Error(), `missing "jsonrpc" member`) {
		t.Fatalf("Call = %v, want a parse error naming the missing member", err)
	}
	if strings.Contains(err.Error(), strings.TrimPrefix(httpTestToken, "Bearer ")) {
		t.Fatalf("Call = %v, shows the request's token", err)
	}
	httpWaitClosed(t, closed, "closing the answered call's stream")
}
