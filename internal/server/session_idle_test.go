package server

import (
	"context"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

const (
	idleInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	idleDone = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	idlePing = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	idleCall = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"block","arguments":{}}}`
)

// idleRequest serves one request on h, in the caller's goroutine, and
// returns what it answered.
func idleRequest(ctx context.Context, h http.Handler, method, session, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequestWithContext(ctx, method, "http://127.0.0.1/mcp", strings.NewReader(body))
	r.Header.Set("Accept", "application/json, text/event-stream")
	if method == http.MethodPost {
		r.Header.Set("Content-Type", "application/json")
	}
	if session != "" {
		r.Header.Set(headerSessionID, session)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// idleSetup serves a server with a "block" tool, which returns once
// unblock is closed, under opts (JSON responses); it ends both at the
// test's end, inside the bubble.
func idleSetup(t *testing.T, opts HTTPOptions) (*Server, *HTTPHandler, chan struct{}) {
	srv := NewServer(nil)
	unblock := make(chan struct{})
	srv.AddTool(Tool{Name: "block"}, func(context.Context, *ToolRequest) (*ToolResult, error) {
		<-unblock
		return TextResult("done"), nil
	})
	opts.JSONResponse = true
	h := srv.StreamableHTTPHandler(&opts)
	t.Cleanup(func() {
		h.Close()
		_ = srv.Close()
	})
	return srv, h, unblock
}

// idleStart initializes a session on h and returns its id.
func idleStart(t *testing.T, h http.Handler) string {
	t.Helper()
	w := idleRequest(t.Context(), h, http.MethodPost, "", idleInit)
	id := w.Header().Get(headerSessionID)
	if w.Code != http.StatusOK || id == "" {
		t.Fatalf("initialize: %d %q, session %q", w.Code, w.Body, id)
	}
	if w := idleRequest(t.Context(), h, http.MethodPost, id, idleDone); w.Code != http.StatusAccepted {
		t.Fatalf("notifications/initialized: %d %q", w.Code, w.Body)
	}
	return id
}

// idleStatus is the status a ping in session id gets.
func idleStatus(t *testing.T, h http.Handler, id string) int {
	return idleRequest(t.Context(), h, http.MethodPost, id, idlePing).Code
}

// wantSessions fails the test unless the server and the handler hold n
// sessions each, when.
func wantSessions(t *testing.T, srv *Server, h *HTTPHandler, n int, when string) {
	t.Helper()
	if s, hs := len(srv.Sessions()), len(h.SessionIDs()); s != n || hs != n {
		t.Fatalf("%s: %d sessions, %d in the handler; want %d each", when, s, hs, n)
	}
}

func TestSessionIdleExpires(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, h, _ := idleSetup(t, HTTPOptions{SessionIdleTimeout: time.Minute})
		id := idleStart(t, h)
		time.Sleep(59 * time.Second)
		if got := idleStatus(t, h, id); got != http.StatusOK {
			t.Fatalf("ping after 59 s: %d, want 200", got)
		}
		// The ping was the session's last use: a minute from it counts.
		time.Sleep(59 * time.Second)
		synctest.Wait()
		wantSessions(t, srv, h, 1, "59 s after the ping")
		time.Sleep(2 * time.Second)
		synctest.Wait()
		wantSessions(t, srv, h, 0, "61 s after the ping")
		if got := idleStatus(t, h, id); got != http.StatusNotFound {
			t.Fatalf("ping in the expired session: %d, want 404", got)
		}
	})
}

func TestSessionIdleNotWhileGETStreamOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, h, _ := idleSetup(t, HTTPOptions{SessionIdleTimeout: time.Minute})
		id := idleStart(t, h)
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { idleRequest(ctx, h, http.MethodGet, id, "") })
		time.Sleep(time.Hour)
		synctest.Wait()
		wantSessions(t, srv, h, 1, "an hour with the GET stream open")
		cancel()
		wg.Wait()
		time.Sleep(61 * time.Second)
		synctest.Wait()
		wantSessions(t, srv, h, 0, "61 s after the GET stream closed")
	})
}

func TestSessionIdleNotWhileCallRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, h, unblock := idleSetup(t, HTTPOptions{SessionIdleTimeout: time.Minute})
		id := idleStart(t, h)
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() { idleRequest(ctx, h, http.MethodPost, id, idleCall) })
		time.Sleep(time.Hour)
		synctest.Wait()
		wantSessions(t, srv, h, 1, "an hour into a call")
		// The client gives up its POST; the call goes on, and its
		// response may still reach a GET: the session is not idle.
		cancel()
		wg.Wait()
		time.Sleep(time.Hour)
		synctest.Wait()
		wantSessions(t, srv, h, 1, "an hour into a call whose POST ended")
		close(unblock)
		synctest.Wait()
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		wantSessions(t, srv, h, 0, "2 min after the call ended")
	})
}

// A call that waits for the client's answer to a request of the server's
// does not keep a session whose client left: with no request and no
// stream of the client's for the whole timeout, nobody will answer. The
// session ends, and the request fails, which ends the call.
func TestSessionIdleWhileWaitingOnTheClient(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := NewServer(nil)
		asked := make(chan struct{})
		ended := make(chan error, 1)
		srv.AddTool(Tool{Name: "ask"}, func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
			close(asked)
			_, err := req.Session.Call(ctx, "roots/list", nil)
			ended <- err
			return TextResult("asked"), nil
		})
		h := srv.StreamableHTTPHandler(&HTTPOptions{SessionIdleTimeout: time.Minute})
		t.Cleanup(func() {
			h.Close()
			_ = srv.Close()
		})
		id := idleStart(t, h)
		ctx, cancel := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		wg.Go(func() {
			idleRequest(ctx, h, http.MethodPost, id, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ask","arguments":{}}}`)
		})
		<-asked
		cancel() // the client leaves without answering
		wg.Wait()
		time.Sleep(59 * time.Second)
		synctest.Wait()
		wantSessions(t, srv, h, 1, "59 s after the client left")
		time.Sleep(2 * time.Second)
		synctest.Wait()
		wantSessions(t, srv, h, 0, "61 s after the client left, its answer still awaited")
		if err := <-ended; err == nil {
			t.Error("the request to the client that left succeeded")
		}
	})
}

// A sealed session's local copy expires; its id opens again.
func TestSessionIdleSealedReopens(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, h, _ := idleSetup(t, HTTPOptions{SessionIdleTimeout: time.Minute, SessionKeys: [][]byte{[]byte(rand.Text() + rand.Text())[:SessionKeySize]}})
		id := idleStart(t, h)
		time.Sleep(61 * time.Second)
		synctest.Wait()
		wantSessions(t, srv, h, 0, "61 s idle")
		if got := idleStatus(t, h, id); got != http.StatusOK {
			t.Fatalf("ping with the sealed id after its copy expired: %d, want 200 (reopened)", got)
		}
		wantSessions(t, srv, h, 1, "reopened")
		time.Sleep(61 * time.Second)
		synctest.Wait()
		wantSessions(t, srv, h, 0, "61 s after the reopened session's ping")
	})
}

func TestMaxSessionsRefusesBeyondCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, h, _ := idleSetup(t, HTTPOptions{MaxSessions: 2})
		first := idleStart(t, h)
		idleStart(t, h)
		w := idleRequest(t.Context(), h, http.MethodPost, "", idleInit)
		if w.Code != http.StatusServiceUnavailable {
			t.Fatalf("initialize past the cap: %d %q, want 503", w.Code, w.Body)
		}
		if body := w.Body.String(); !strings.Contains(body, `"code":-32000`) || !strings.Contains(body, "too many sessions") || !strings.Contains(body, "at most 2 sessions") {
			t.Fatalf("initialize past the cap: body %s, want a JSON-RPC error saying the cap", body)
		}
		if !strings.Contains(w.Body.String(), `"id":1,`) {
			t.Fatalf("initialize past the cap: body %s, want the error for the request's id 1", w.Body)
		}
		if id := w.Header().Get(headerSessionID); id != "" {
			t.Fatalf("the refused initialize got session id %q", id)
		}
		wantSessions(t, srv, h, 2, "after the refusal")
		if w := idleRequest(t.Context(), h, http.MethodDelete, first, ""); w.Code != http.StatusOK {
			t.Fatalf("DELETE: %d %q", w.Code, w.Body)
		}
		idleStart(t, h) // room again
	})
}

// A sealed id this handler does not hold is a new session here: past the
// cap it gets 503, not 404 (which would make the host start over, into
// the same cap).
func TestMaxSessionsRefusesReopen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		keys := [][]byte{[]byte(rand.Text() + rand.Text())[:SessionKeySize]}
		_, other, _ := idleSetup(t, HTTPOptions{SessionKeys: keys})
		id := idleStart(t, other)
		_, h, _ := idleSetup(t, HTTPOptions{SessionKeys: keys, MaxSessions: 1})
		idleStart(t, h)
		w := idleRequest(t.Context(), h, http.MethodPost, id, idlePing)
		if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), `"id":2,`) {
			t.Fatalf("a sealed id past the cap: %d %s, want 503 with the error for the ping's id 2", w.Code, w.Body)
		}
		// A GET has no body, and no id to answer under.
		w = idleRequest(t.Context(), h, http.MethodGet, id, "")
		if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), `"id":null,`) {
			t.Fatalf("a GET of a sealed id past the cap: %d %s, want 503 with a null id", w.Code, w.Body)
		}
	})
}
