package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

type seenPost struct {
	method string
	header http.Header
	body   []byte
}

// oneShotServer answers every POST with reply after recording the request.
func oneShotServer(t *testing.T, reply http.HandlerFunc) (*httptest.Server, chan seenPost) {
	t.Helper()
	seen := make(chan seenPost, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		seen <- seenPost{r.Method, r.Header.Clone(), body}
		reply(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, seen
}

func sseReply(write func(w *sse.Writer)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		write(sse.NewWriter(w))
	}
}

func msgEvent(body string) sse.Event { return sse.Event{Type: "message", Data: []byte(body)} }

func TestCallHTTPJSON(t *testing.T) {
	srv, seen := oneShotServer(t, replyProbe(http.StatusOK, `{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`, "Content-Type", "application/json; charset=utf-8"))
	resp, err := CallHTTP(context.Background(), srv.URL+"/mcp", mustRequest(t, 7, "tools/list"),
		&OneShotOptions{Headers: http.Header{"Authorization": {"Bearer t"}}, ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatalf("CallHTTP: %v", err)
	}
	if resp.ID != jsonrpc.Int64ID(7) || string(resp.Result) != `{"tools":[]}` {
		t.Errorf("response %+v", resp)
	}
	r := <-seen
	if r.method != http.MethodPost || r.header.Get("Accept") != "application/json, text/event-stream" ||
		r.header.Get("Content-Type") != "application/json" || r.header.Get("Authorization") != "Bearer t" ||
		r.header.Get("Mcp-Protocol-Version") != "2025-06-18" {
		t.Errorf("request %s with headers %v", r.method, r.header)
	}
	if m, err := jsonrpc.DecodeMessage(r.body); err != nil || m.(*jsonrpc.Request).Method != "tools/list" {
		t.Errorf("request body %q: %v", r.body, err)
	}
}

func TestCallHTTPSSE(t *testing.T) {
	srv, _ := oneShotServer(t, sseReply(func(w *sse.Writer) {
		w.WriteEvent(sse.Event{ID: "0", HasID: true, Retry: time.Second, HasRetry: true}) // priming
		w.WriteComment("keep-alive")
		w.WriteEvent(msgEvent(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`))
		w.WriteEvent(msgEvent(`{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{}}`))
		w.WriteEvent(msgEvent(`{"jsonrpc":"2.0","id":99,"result":{}}`))
		w.WriteEvent(sse.Event{Type: "ping", Data: []byte("not json")})
		w.WriteEvent(sse.Event{Data: []byte(`{"jsonrpc":"2.0","id":3,"result":{"ok":true}}`)})
		w.WriteEvent(msgEvent(`{"jsonrpc":"2.0","id":3,"result":{"second":true}}`))
	}))
	resp, err := CallHTTP(context.Background(), srv.URL, mustRequest(t, 3, "tools/call"), nil)
	if err != nil {
		t.Fatalf("CallHTTP: %v", err)
	}
	if string(resp.Result) != `{"ok":true}` {
		t.Errorf("response %s, want the first response with id 3", resp.Result)
	}
}

func TestCallHTTPSSEBatch(t *testing.T) {
	srv, _ := oneShotServer(t, sseReply(func(w *sse.Writer) {
		w.WriteEvent(msgEvent(`[{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}]`))
	}))
	resp, err := CallHTTP(context.Background(), srv.URL, mustRequest(t, 1, "x"), nil)
	if err != nil || resp.Error == nil || resp.Error.Code != -32601 {
		t.Fatalf("CallHTTP = %+v, %v; want the error response", resp, err)
	}
}

func TestCallHTTPIDLessError(t *testing.T) {
	srv, _ := oneShotServer(t, replyProbe(http.StatusOK, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`, "Content-Type", "application/json"))
	resp, err := CallHTTP(context.Background(), srv.URL, mustRequest(t, 4, "x"), nil)
	if err != nil || resp.Error == nil || resp.ID != jsonrpc.Int64ID(4) {
		t.Fatalf("CallHTTP = %+v, %v; want the id-less error as the response to 4", resp, err)
	}
}

func TestCallHTTPFailures(t *testing.T) {
	tests := []struct {
		name  string
		reply http.HandlerFunc
		opts  *OneShotOptions
		want  string
		check func(t *testing.T, err error)
	}{
		{name: "SSE ends without the response",
			reply: sseReply(func(w *sse.Writer) {
				w.WriteEvent(msgEvent(`{"jsonrpc":"2.0","method":"n"}`))
			}),
			want: "ended without the response to request 1"},
		{name: "SSE ends after a priming event",
			reply: sseReply(func(w *sse.Writer) {
				w.WriteEvent(sse.Event{ID: "ev-1", HasID: true, Retry: 500 * time.Millisecond, HasRetry: true})
			}),
			want: `ended after event id "ev-1" without the response`},
		{name: "SSE event with bad JSON",
			reply: sseReply(func(w *sse.Writer) { w.WriteEvent(msgEvent(`{"jsonrpc":`)) }),
			want:  "not valid JSON-RPC", check: wantDecodeError},
		{name: "JSON body not JSON",
			reply: replyProbe(http.StatusOK, `<html>oops</html>`, "Content-Type", "application/json"),
			want:  "the reply is not valid JSON-RPC", check: wantDecodeError},
		{name: "JSON reply for another id",
			reply: replyProbe(http.StatusOK, `{"jsonrpc":"2.0","id":2,"result":{}}`, "Content-Type", "application/json"),
			want:  "holds no response to request 1"},
		{name: "202 without a body",
			reply: replyProbe(http.StatusAccepted, ""),
			want:  "without a response"},
		{name: "unexpected content type",
			reply: replyProbe(http.StatusOK, "hi", "Content-Type", "text/plain"),
			want:  `Content-Type "text/plain"`},
		{name: "JSON body too large",
			reply: replyProbe(http.StatusOK, `{"jsonrpc":"2.0","id":1,"result":{"pad":"`+strings.Repeat("x", 200)+`"}}`, "Content-Type", "application/json"),
			opts:  &OneShotOptions{MaxBodySize: 100},
			want:  "larger than the maximum of 100 bytes"},
		{name: "SSE event too large",
			reply: sseReply(func(w *sse.Writer) {
				w.WriteEvent(msgEvent(`{"jsonrpc":"2.0","id":1,"result":{"pad":"` + strings.Repeat("x", 200) + `"}}`))
			}),
			opts: &OneShotOptions{MaxBodySize: 100},
			want: "maximum event size of 100 bytes",
			check: func(t *testing.T, err error) {
				if !errors.Is(err, sse.ErrEventTooLarge) {
					t.Errorf("error does not wrap sse.ErrEventTooLarge: %v", err)
				}
			}},
		{name: "401 with auth hints",
			reply: replyProbe(http.StatusUnauthorized, `{"error":"invalid_token"}`,
				"WWW-Authenticate", `Bearer resource_metadata="https://h/.well-known/oauth-protected-resource"`,
				"Mcp-Auth-Server", "https://auth.example"),
			want: "401 Unauthorized",
			check: func(t *testing.T, err error) {
				var he *HTTPError
				if !errors.As(err, &he) {
					t.Fatalf("not an *HTTPError: %v", err)
				}
				if !strings.Contains(he.WWWAuthenticate, "resource_metadata") || he.AuthServer != "https://auth.example" || he.Body != `{"error":"invalid_token"}` {
					t.Errorf("hints missing: %+v", he)
				}
				if !strings.Contains(err.Error(), "Mcp-Auth-Server: https://auth.example") || !strings.Contains(err.Error(), "WWW-Authenticate: Bearer") {
					t.Errorf("Error() does not show the hints: %v", err)
				}
			}},
		{name: "400 with a JSON-RPC error body",
			reply: replyProbe(http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Unsupported protocol version"}}`),
			want:  "Unsupported protocol version",
			check: func(t *testing.T, err error) {
				var he *HTTPError
				if !errors.As(err, &he) || he.StatusCode != 400 || he.RPCError == nil || he.RPCError.Code != -32000 {
					t.Errorf("want an *HTTPError 400 with RPCError, got %v", err)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := oneShotServer(t, tc.reply)
			resp, err := CallHTTP(context.Background(), srv.URL+"/mcp", mustRequest(t, 1, "tools/call"), tc.opts)
			if err == nil {
				t.Fatalf("CallHTTP = %+v, want an error", resp)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), "/mcp") {
				t.Errorf("error %q does not name the URL", err)
			}
			if tc.check != nil {
				tc.check(t, err)
			}
		})
	}
}

func wantDecodeError(t *testing.T, err error) {
	t.Helper()
	var de *jsonrpc.DecodeError
	if !errors.As(err, &de) {
		t.Errorf("error does not wrap a *jsonrpc.DecodeError: %v", err)
	}
}

func TestCallHTTPRedactsURL(t *testing.T) {
	srv, _ := oneShotServer(t, replyProbe(http.StatusInternalServerError, "upstream failed"))
	u := strings.Replace(srv.URL, "http://", "http://alice:hunter2@", 1) + "/mcp?api_key=opensesame&x=1#frag"
	_, err := CallHTTP(context.Background(), u, mustRequest(t, 1, "ping"),
		&OneShotOptions{Headers: http.Header{"X-Api-Key": {"headersecret"}}})
	var he *HTTPError
	if !errors.As(err, &he) || he.StatusCode != 500 {
		t.Fatalf("CallHTTP = %v, want an *HTTPError 500", err)
	}
	for _, secret := range []string{"hunter2", "alice", "opensesame", "headersecret", "frag"} {
		if strings.Contains(err.Error(), secret) || strings.Contains(he.URL, secret) {
			t.Errorf("%q leaked: error %q, URL %q", secret, err, he.URL)
		}
	}
	if !strings.Contains(he.URL, "/mcp?api_key=REDACTED&x=REDACTED") {
		t.Errorf("URL = %q, want the path and query keys kept", he.URL)
	}
	// A network error must not leak the URL either (net/http quotes it).
	closed := httptest.NewServer(http.NotFoundHandler())
	addr := closed.URL
	closed.Close()
	_, err = CallHTTP(context.Background(), strings.Replace(addr, "http://", "http://bob:pw1234@", 1)+"/?token=opensesame", mustRequest(t, 1, "ping"), nil)
	if err == nil || strings.Contains(err.Error(), "pw1234") || strings.Contains(err.Error(), "opensesame") {
		t.Errorf("network error %v leaks or is missing", err)
	}
}

func TestCallHTTPContextAndTimeout(t *testing.T) {
	got := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Reading the body lets the server notice the client leaving.
		io.Copy(io.Discard, r.Body)
		got <- struct{}{}
		<-r.Context().Done() // never answers
	}))
	defer srv.Close()

	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-got; cancel() }()
	if _, err := CallHTTP(ctx, srv.URL, mustRequest(t, 1, "ping"), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled CallHTTP = %v, want context.Canceled", err)
	}

	// The server never answers, so only the Timeout can end this call.
	_, err := CallHTTP(context.Background(), srv.URL, mustRequest(t, 1, "ping"), &OneShotOptions{Timeout: time.Millisecond})
	if !errors.Is(err, jsonrpc.ErrTimeout) {
		t.Errorf("CallHTTP with Timeout = %v, want jsonrpc.ErrTimeout", err)
	}
}

func TestCallHTTPBadInput(t *testing.T) {
	n, _ := jsonrpc.NewRequest(jsonrpc.ID{}, "x", nil)
	for _, tc := range []struct {
		url  string
		req  *jsonrpc.Request
		opts *OneShotOptions
		want string
	}{
		{"http://h", nil, nil, "needs a request"},
		{"http://h", n, nil, "has no id"},
		{"", mustRequest(t, 1, "x"), nil, "needs a URL"},
		{"unix:///sock", mustRequest(t, 1, "x"), nil, "scheme must be http or https"},
		{"http://h", mustRequest(t, 1, "x"), &OneShotOptions{Headers: http.Header{"K": {"v\r\n"}}}, `header "K"`},
	} {
		if _, err := CallHTTP(context.Background(), tc.url, tc.req, tc.opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("CallHTTP(%q) = %v, want %q", tc.url, err, tc.want)
		}
	}
}
