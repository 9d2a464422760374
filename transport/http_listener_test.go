package transport

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// listenerConfig is httpTestConfig with the GET listener on.
func listenerConfig(srv *httpScript) (*StreamableHTTP, *httpSleepLog, *httpHookLog) {
	cfg, sl, hl := httpTestConfig(srv)
	cfg.DisableListener = false
	return cfg, sl, hl
}

// afterStep matches only once step was hit: a request that comes too
// early finds no step and fails the test.
func afterStep(st *httpStep, match func(*httpSeenReq) bool) func(*httpSeenReq) bool {
	return func(r *httpSeenReq) bool {
		select {
		case <-st.hit:
			return match(r)
		default:
			return false
		}
	}
}

// handshakeOpeningListener runs the handshake over s, with a GET expected
// only after notifications/initialized and answered with events. opened
// says the GET had come when the Write of initialized returned; closing
// held ends the listener's stream.
func handshakeOpeningListener(t *testing.T, srv *httpScript, s *httpStream, events []httpEv) (listen *httpStep, opened bool, held chan struct{}) {
	t.Helper()
	srv.on("initialize", httpIsPOST("initialize"), httpReplyJSON(200, httpInitResult, "Mcp-Session-Id", "sess-1"))
	inited := srv.on("initialized", httpIsPOST("notifications/initialized"), httpReplyStatus(http.StatusAccepted))
	held = make(chan struct{})
	listen = srv.on("listener", afterStep(inited, httpIsGET("")), httpReplySSE(held, events))
	httpWrite(t, s, httpRequest(t, 1, "initialize", httpInitParams))
	httpReadResponse(t, s, 1)
	s.SetProtocolVersion("2025-11-25")
	httpWrite(t, s, httpNotification(t, "notifications/initialized", nil))
	select {
	case <-listen.hit:
		opened = true
	default:
	}
	return listen, opened, held
}

func TestHTTPListenerStartsAfterInitialized(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := listenerConfig(srv)
	cfg.listenerWait = time.Hour // the order is asserted, not the bound
	s := httpConnect(t, cfg)
	listen, opened, held := handshakeOpeningListener(t, srv, s, []httpEv{
		{data: `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`},
		{data: `{"jsonrpc":"2.0","id":"srv-1","method":"elicitation/create","params":{"message":"?"}}`},
	})
	// The GET is established before initialized is acknowledged, so that
	// no later request overtakes it.
	if !opened {
		t.Error("Write of notifications/initialized returned before the listener's GET")
	}

	r := httpWaitHit(t, listen)
	httpAssertHeader(t, r, "Accept", "text/event-stream")
	httpAssertHeader(t, r, "Mcp-Session-Id", "sess-1")
	httpAssertHeader(t, r, "MCP-Protocol-Version", "2025-11-25")
	httpAssertHeader(t, r, "Authorization", httpTestToken)
	httpAssertHeader(t, r, "Last-Event-ID", "")
	if n, ok := httpRead(t, s).(*jsonrpc.Notification); !ok || n.Method != "notifications/tools/list_changed" {
		t.Fatal("the listener's notification did not arrive")
	}
	if req, ok := httpRead(t, s).(*jsonrpc.Request); !ok || req.Method != "elicitation/create" {
		t.Fatal("the listener's request did not arrive")
	}
	s.Close()
	httpWaitClosed(t, held, "closing the listener on Close")
}

func TestHTTPListenerTurnsOff(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(http.ResponseWriter, *httpSeenReq)
		want  string
	}{
		{"405", httpReplyStatus(http.StatusMethodNotAllowed), "405"},
		{"400", httpReplyJSON(400, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"no GET here"}}`), "400"},
		{"401", httpReplyStatus(http.StatusUnauthorized), "401"},
		{"not SSE", httpReplyJSON(200, `{}`), "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newHTTPScript(t)
			cfg, sleeps, hooks := listenerConfig(srv)
			s := httpConnect(t, cfg)
			srv.on("listener", httpIsGET(""), tc.reply) // exactly one GET
			httpHandshake(t, srv, s, "sess-1")
			err := hooks.waitHook(t, "is off")
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("hook = %v, want it to mention %s", err, tc.want)
			}
			// The session goes on.
			srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
			httpWrite(t, s, httpRequest(t, 5, "ping", nil))
			httpReadResponse(t, s, 5)
			if got := sleeps.delays(); len(got) != 0 {
				t.Errorf("the listener tried again after %v", got)
			}
		})
	}
}

func TestHTTPListenerDisabled(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := httpTestConfig(srv) // DisableListener: a GET would be unexpected
	s := httpConnect(t, cfg)
	httpHandshake(t, srv, s, "sess-1")
	srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	httpWrite(t, s, httpRequest(t, 5, "ping", nil))
	httpReadResponse(t, s, 5)
}

func TestHTTPListenerReconnectsWithLastEventID(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, sleeps, hooks := listenerConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("listener", httpIsGET(""), httpReplySSE(nil, []httpEv{
		{id: "L1", data: `{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}`},
	}))
	held := make(chan struct{})
	again := srv.on("listener again", httpIsGET("L1"), httpReplySSE(held, []httpEv{
		{id: "L2", data: `{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}`},
	}))
	httpHandshake(t, srv, s, "sess-1")
	for _, want := range []string{"notifications/resources/list_changed", "notifications/prompts/list_changed"} {
		if n, ok := httpRead(t, s).(*jsonrpc.Notification); !ok || n.Method != want {
			t.Fatalf("want %s from the listener", want)
		}
	}
	httpAssertHeader(t, httpWaitHit(t, again), "Mcp-Session-Id", "sess-1")
	if got := sleeps.delays(); !slices.Equal(got, []time.Duration{time.Second}) {
		t.Errorf("delays = %v, want one default backoff of 1s", got)
	}
	hooks.waitHook(t, "reconnecting")
}

func TestHTTPListenerGivesUp(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, sleeps, hooks := listenerConfig(srv)
	cfg.Reconnect.MaxAttempts = 2
	s := httpConnect(t, cfg)
	for range 3 {
		srv.on("failing listener", httpIsGET(""), httpReplyStatus(http.StatusBadGateway))
	}
	httpHandshake(t, srv, s, "sess-1")
	if err := hooks.waitHook(t, "is off"); !strings.Contains(err.Error(), "gave up after 2 attempts") {
		t.Errorf("hook = %v", err)
	}
	if got := len(sleeps.delays()); got != 2 {
		t.Errorf("%d waits, want 2", got)
	}
}

func TestHTTPListenerSessionExpiry(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := listenerConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("expired listener", httpWithSession(httpIsGET(""), "sess-1"), httpReplyStatus(http.StatusNotFound))
	httpScriptRenewal(srv, "sess-2")
	held := make(chan struct{})
	fresh := srv.on("new listener", httpWithSession(httpIsGET(""), "sess-2"), httpReplySSE(held, nil))
	httpHandshake(t, srv, s, "sess-1")
	httpWaitHit(t, fresh)
	if got := s.SessionID(); got != "sess-2" {
		t.Errorf("SessionID() = %q, want sess-2", got)
	}
}

// A server whose router answers every GET with 404 (an Express app with
// only app.post, say) looks, to the listener, like a session that expired:
// the first 404 renews the session, but the same answer in the new
// session turns the listener off. Renewing again would re-initialize for
// ever, as fast as the server answers.
func TestHTTPListenerGET404InNewSessionTurnsOff(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, hooks := listenerConfig(srv)
	s := httpConnect(t, cfg)
	srv.on("listener of sess-1", httpWithSession(httpIsGET(""), "sess-1"), httpReplyStatus(http.StatusNotFound))
	httpScriptRenewal(srv, "sess-2")
	srv.on("listener of sess-2", httpWithSession(httpIsGET(""), "sess-2"), httpReplyStatus(http.StatusNotFound))
	httpHandshake(t, srv, s, "sess-1")
	hooks.waitHook(t, "is off")
	// Another initialize would have found no step; the session works.
	srv.on("ping", httpWithSession(httpIsPOST("ping"), "sess-2"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	httpWrite(t, s, httpRequest(t, 5, "ping", nil))
	httpReadResponse(t, s, 5)
}

func TestHTTPListenerHeld(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := listenerConfig(srv)
	cfg.listenerWait = time.Hour // the order is asserted, not the bound
	s := httpConnect(t, cfg)
	s.HoldListener()
	httpHandshake(t, srv, s, "sess-1") // a GET now would find no step
	srv.on("ping", httpIsPOST("ping"), httpReplyJSON(200, `{"jsonrpc":"2.0","id":%ID%,"result":{}}`))
	httpWrite(t, s, httpRequest(t, 5, "ping", nil))
	httpReadResponse(t, s, 5)

	held := make(chan struct{})
	listen := srv.on("listener", httpIsGET(""), httpReplySSE(held, []httpEv{
		{data: `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}`},
	}))
	s.ReleaseListener(t.Context())
	select {
	case <-listen.hit:
	default:
		t.Error("ReleaseListener returned before the listener's GET")
	}
	httpAssertHeader(t, httpWaitHit(t, listen), "Mcp-Session-Id", "sess-1")
	if n, ok := httpRead(t, s).(*jsonrpc.Notification); !ok || n.Method != "notifications/tools/list_changed" {
		t.Fatal("the listener's notification did not arrive")
	}
	s.ReleaseListener(t.Context()) // released already: no second GET
	s.Close()
	httpWaitClosed(t, held, "closing the listener on Close")
}

func TestHTTPListenerReleasedBeforeInitialized(t *testing.T) {
	srv := newHTTPScript(t)
	cfg, _, _ := listenerConfig(srv)
	cfg.listenerWait = time.Hour
	s := httpConnect(t, cfg)
	s.HoldListener()
	s.ReleaseListener(t.Context()) // not initialized: nothing to open yet
	_, opened, held := handshakeOpeningListener(t, srv, s, []httpEv{
		{data: `{"jsonrpc":"2.0","method":"notifications/prompts/list_changed"}`},
	})
	if !opened {
		t.Error("the released listener did not open with notifications/initialized")
	}
	if n, ok := httpRead(t, s).(*jsonrpc.Notification); !ok || n.Method != "notifications/prompts/list_changed" {
		t.Fatal("the listener's notification did not arrive")
	}
	s.Close()
	httpWaitClosed(t, held, "closing the listener on Close")
}
