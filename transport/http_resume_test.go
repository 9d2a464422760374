package transport

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

const httpToolResult = `{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`

// The conformance suite's sse-retry scenario: a priming event with an id
// and retry, the connection closed before the response, the response
// replayed on GET with Last-Event-ID after the retry time.
func TestHTTPResumeHonoursRetry(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, sleeps, hooks := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	srv.on("cut call", httpIsPOST("tools/call"), httpReplySSE(nil, []httpEv{{id: "event-1", retry: 500 * time.Millisecond}}))
	resume := srv.on("resume", httpIsGET("event-1"), httpReplySSE(nil, []httpEv{{id: "event-2", data: httpToolResult}}))

	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
	httpReadResponse(t, s, 2)
	r := httpWaitHit(t, resume)
	httpAssertHeader(t, r, "Accept", "text/event-stream")
	httpAssertHeader(t, r, "Mcp-Session-Id", "sess-1")
	httpAssertHeader(t, r, "MCP-Protocol-Version", "2025-11-25")
	httpAssertHeader(t, r, "Authorization", httpTestToken)
	if got := sleeps.delays(); !slices.Equal(got, []time.Duration{500 * time.Millisecond}) {
		t.Errorf("waited %v before resuming, want the server's retry [500ms]", got)
	}
	hooks.waitHook(t, "resuming")
}

// Without retry the backoff applies; attempts are bounded, and an event
// on a resumed stream resets the count.
func TestHTTPResumeBoundedAndResetByEvents(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, sleeps, _ := httpTestConfig(srv)
	cfg.Reconnect = ReconnectPolicy{InitialDelay: 100 * time.Millisecond, Multiplier: 2, MaxDelay: time.Second, MaxAttempts: 3}
	s := httpConnect(t, cfg)
	unavailable := httpReplyStatus(http.StatusServiceUnavailable)
	srv.on("cut call", httpIsPOST("tools/call"), httpReplySSE(nil, []httpEv{{id: "e1"}}))
	srv.on("resume 1", httpIsGET("e1"), unavailable)
	srv.on("resume 2", httpIsGET("e1"), unavailable)
	srv.on("resume 3", httpIsGET("e1"), httpReplySSE(nil, []httpEv{
		{id: "e2", data: `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`},
	}))
	srv.on("resume 4", httpIsGET("e2"), unavailable)
	srv.on("resume 5", httpIsGET("e2"), unavailable)
	srv.on("resume 6", httpIsGET("e2"), unavailable)

	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
	if n, ok := httpRead(t, s).(*jsonrpc.Notification); !ok || n.Method != "notifications/progress" {
		t.Fatal("the resumed stream's notification did not arrive")
	}
	e := httpErrorResponse(t, httpRead(t, s), 2)
	if e.Code != codeTransportError || !strings.Contains(e.Message, "gave up after 3 attempts") || !strings.Contains(e.Message, "503") {
		t.Errorf("error = %d %q, want a -32000 saying resuming gave up after 3 attempts (503)", e.Code, e.Message)
	}
	ms := time.Millisecond
	want := []time.Duration{100 * ms, 200 * ms, 400 * ms, 100 * ms, 200 * ms, 400 * ms}
	if got := sleeps.delays(); !slices.Equal(got, want) {
		t.Errorf("delays = %v, want %v", got, want)
	}
}

func TestHTTPStreamEndedWithoutEventID(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, sleeps, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("cut call", httpIsPOST("tools/call"), httpReplySSE(nil, []httpEv{
		{data: `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}`},
	}))
	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
	if _, ok := httpRead(t, s).(*jsonrpc.Notification); !ok {
		t.Fatal("the notification before the cut did not arrive")
	}
	e := httpErrorResponse(t, httpRead(t, s), 2)
	if e.Code != codeTransportError || !strings.Contains(e.Message, "tools/call") || !strings.Contains(e.Message, "no event id") {
		t.Errorf("error = %d %q, want a -32000 naming tools/call and the missing event id", e.Code, e.Message)
	}
	if got := sleeps.delays(); len(got) != 0 {
		t.Errorf("waited %v, want no resumption at all", got)
	}
}

func TestHTTPResumeRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(http.ResponseWriter, *httpSeenReq)
		want  string
	}{
		{"405", httpReplyStatus(http.StatusMethodNotAllowed), "refused to resume"},
		{"404 with session", httpReplyStatus(http.StatusNotFound), "session expired"},
		{"not SSE", httpReplyJSON(200, `{}`), "refused to resume"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, _, _ := httpTestConfig(srv)
			s := httpConnect(t, cfg)
			httpHandshake(t, srv, s, "sess-1")
			srv.on("cut call", httpIsPOST("tools/call"), httpReplySSE(nil, []httpEv{{id: "e1"}}))
			srv.on("resume", httpIsGET("e1"), tc.reply)
			httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
			if e := httpErrorResponse(t, httpRead(t, s), 2); !strings.Contains(e.Message, tc.want) {
				t.Errorf("error = %q, want it to say %q", e.Message, tc.want)
			}
		})
	}
}

func TestHTTPResumeDisabled(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	cfg.Reconnect.MaxAttempts = -1
	s := httpConnect(t, cfg)
	srv.on("cut call", httpIsPOST("tools/call"), httpReplySSE(nil, []httpEv{{id: "e1"}}))
	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
	if e := httpErrorResponse(t, httpRead(t, s), 2); !strings.Contains(e.Message, "disabled") {
		t.Errorf("error = %q, want it to say resumption is disabled", e.Message)
	}
}

func TestHTTPMaxEventSize(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	cfg.MaxEventSize = 64
	s := httpConnect(t, cfg)
	srv.on("big event", httpIsPOST("tools/call"), httpReplySSE(nil, []httpEv{
		{data: `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"far too long for the limit"}]}}`},
	}))
	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
	if e := httpErrorResponse(t, httpRead(t, s), 2); !strings.Contains(e.Message, "maximum") {
		t.Errorf("error = %q, want it to name the size limit", e.Message)
	}
}

func TestHTTPBadEventDataIsADecodeError(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("call", httpIsPOST("tools/call"), httpReplySSE(nil, []httpEv{
		{data: `not json`},
		{data: `{"jsonrpc":"2.0","id":2,"result":{}}`},
	}))
	httpWrite(t, s, httpRequest(t, 2, "tools/call", map[string]any{"name": "x"}))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.Read(ctx); !jsonrpc.IsDecodeError(err) {
		t.Fatalf("Read = %v, want a *DecodeError", err)
	}
	httpReadResponse(t, s, 2)
}

func TestReconnectPolicyBackoff(t *testing.T) {
	p := ReconnectPolicy{}.withDefaults()
	if p.InitialDelay != time.Second || p.MaxDelay != 30*time.Second || p.Multiplier != 1.5 || p.MaxAttempts != 5 {
		t.Fatalf("defaults = %+v", p)
	}
	ms := time.Millisecond
	for _, tc := range []struct {
		n    int
		r    float64
		want time.Duration
	}{
		{1, 0.5, time.Second},
		{2, 0.5, 1500 * ms},
		{3, 0.5, 2250 * ms},
		{20, 0.5, 30 * time.Second}, // capped
		{1, 0, 800 * ms},            // jitter: -20%
		{1, 1, 1200 * ms},           // jitter: +20%
		{20, 1, 36 * time.Second},   // jitter applies on top of the cap
	} {
		if got := p.backoff(tc.n, tc.r); got != tc.want {
			t.Errorf("backoff(%d, %v) = %v, want %v", tc.n, tc.r, got, tc.want)
		}
	}
	if got := (ReconnectPolicy{MaxAttempts: -1}).withDefaults().MaxAttempts; got != -1 {
		t.Errorf("MaxAttempts -1 became %d", got)
	}
}

func TestSleepContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		if err := sleepContext(context.Background(), 500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if got := time.Since(start); got != 500*time.Millisecond {
			t.Errorf("slept %v, want 500ms", got)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		start = time.Now()
		if err := sleepContext(ctx, time.Hour); err == nil {
			t.Fatal("sleep outlived its context")
		}
		if got := time.Since(start); got != time.Second {
			t.Errorf("sleep ended after %v, want at the 1s deadline", got)
		}
	})
}
