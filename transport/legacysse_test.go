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
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// legacyServer is a minimal 2024-11-05 HTTP+SSE server. The test drives the
// GET stream through events (raw event-stream text; closing it ends the
// stream) and sees every POST on posts.
type legacyServer struct {
	srv      *httptest.Server
	endpoint string      // data of the endpoint event; "" sends none
	before   string      // raw text written before the endpoint event
	events   chan string // raw text for the GET stream after the endpoint
	posts    chan legacyPost
	gets     chan http.Header // headers of each GET
	getDone  chan struct{}    // closed when the GET handler returned
	doneOnce sync.Once

	// probe, if set, answers POSTs to /mcp (a Streamable HTTP attempt).
	probe http.HandlerFunc

	mu         sync.Mutex
	postStatus int
	postBody   string
}

type legacyPost struct {
	path   string
	query  string
	header http.Header
	body   string
}

func newLegacyServer(t *testing.T, endpoint string, probe ...http.HandlerFunc) *legacyServer {
	t.Helper()
	ls := &legacyServer{
		endpoint:   endpoint,
		events:     make(chan string, 16),
		posts:      make(chan legacyPost, 16),
		gets:       make(chan http.Header, 4),
		getDone:    make(chan struct{}),
		postStatus: http.StatusAccepted,
		postBody:   "Accepted",
	}
	if len(probe) > 0 {
		ls.probe = probe[0]
	}
	ls.srv = httptest.NewServer(http.HandlerFunc(ls.serve))
	t.Cleanup(ls.srv.Close)
	return ls
}

func (ls *legacyServer) url() string { return ls.srv.URL + "/sse" }

func (ls *legacyServer) setPostReply(status int, body string) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.postStatus, ls.postBody = status, body
}

func (ls *legacyServer) serve(w http.ResponseWriter, r *http.Request) {
	if ls.probe != nil && r.Method == http.MethodPost && r.URL.Path == "/mcp" {
		ls.probe(w, r)
		return
	}
	switch r.Method {
	case http.MethodGet:
		defer ls.doneOnce.Do(func() { close(ls.getDone) })
		ls.gets <- r.Header.Clone()
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, ls.before)
		if ls.endpoint != "" {
			sse.NewWriter(w).WriteEvent(sse.Event{Type: "endpoint", Data: []byte(ls.endpoint)})
		} else {
			w.(http.Flusher).Flush()
		}
		for {
			select {
			case raw, ok := <-ls.events:
				if !ok {
					return
				}
				io.WriteString(w, raw)
				w.(http.Flusher).Flush()
			case <-r.Context().Done():
				return
			}
		}
	case http.MethodPost:
		body, _ := io.ReadAll(r.Body)
		ls.posts <- legacyPost{path: r.URL.Path, query: r.URL.RawQuery, header: r.Header.Clone(), body: string(body)}
		ls.mu.Lock()
		status, reply := ls.postStatus, ls.postBody
		ls.mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, reply)
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// message renders one JSON-RPC message as a "message" event.
func message(body string) string { return "event: message\ndata: " + body + "\n\n" }

func connectLegacy(t *testing.T, tr *SSE) jsonrpc.Stream {
	t.Helper()
	s, err := tr.Connect(context.Background())
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// connectErr connects and returns the error; a stream that connected
// against expectations is closed, so the test fails instead of hanging on
// the server's cleanup.
func connectErr(ctx context.Context, tr Transport) error {
	s, err := tr.Connect(ctx)
	if err == nil {
		s.Close()
	}
	return err
}

func mustRequest(t *testing.T, id int64, method string) *jsonrpc.Request {
	t.Helper()
	r, err := jsonrpc.NewRequest(jsonrpc.Int64ID(id), method, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLegacySSEMessagesBothWays(t *testing.T) {
	ls := newLegacyServer(t, "/message?sessionId=abc")
	s := connectLegacy(t, &SSE{URL: ls.url(), Headers: http.Header{"Authorization": {"Bearer tok"}, "X-Api-Key": {"k1"}}})
	ctx := context.Background()

	get := <-ls.gets
	if get.Get("Accept") != "text/event-stream" || get.Get("Authorization") != "Bearer tok" || get.Get("X-Api-Key") != "k1" {
		t.Errorf("GET headers %v lack Accept or the configured headers", get)
	}

	if err := s.Write(ctx, mustRequest(t, 1, "initialize")); err != nil {
		t.Fatalf("Write: %v", err)
	}
	p := <-ls.posts
	if p.path != "/message" || p.query != "sessionId=abc" {
		t.Errorf("POST went to %s?%s, want /message?sessionId=abc", p.path, p.query)
	}
	if p.header.Get("Content-Type") != "application/json" || p.header.Get("Authorization") != "Bearer tok" {
		t.Errorf("POST headers %v", p.header)
	}
	var posted map[string]any
	if err := json.Unmarshal([]byte(p.body), &posted); err != nil || posted["method"] != "initialize" || posted["id"] != float64(1) {
		t.Errorf("POST body %q", p.body)
	}

	// A notification and the response, the second without an event type.
	ls.events <- message(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info"}}`)
	ls.events <- `data: {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2024-11-05"}}` + "\n\n"
	m, err := s.Read(ctx)
	if n, ok := m.(*jsonrpc.Notification); err != nil || !ok || n.Method != "notifications/message" {
		t.Fatalf("first Read = %#v, %v; want the notification", m, err)
	}
	m, err = s.Read(ctx)
	if r, ok := m.(*jsonrpc.Response); err != nil || !ok || r.ID != jsonrpc.Int64ID(1) {
		t.Fatalf("second Read = %#v, %v; want the response to 1", m, err)
	}

	// The client answers a server request with a POST too.
	resp, _ := jsonrpc.NewResponse(jsonrpc.StringID("srv-1"), map[string]any{}, nil)
	if err := s.Write(ctx, resp); err != nil {
		t.Fatal(err)
	}
	if p := <-ls.posts; !strings.Contains(p.body, `"srv-1"`) {
		t.Errorf("response POST body %q", p.body)
	}
}

func TestLegacySSEEndpointResolution(t *testing.T) {
	t.Run("absolute same origin", func(t *testing.T) {
		ls := newLegacyServer(t, "")
		ls.endpoint = ls.srv.URL + "/rpc/x?s=1"
		s := connectLegacy(t, &SSE{URL: ls.url()})
		if err := s.Write(context.Background(), mustRequest(t, 1, "ping")); err != nil {
			t.Fatal(err)
		}
		if p := <-ls.posts; p.path != "/rpc/x" || p.query != "s=1" {
			t.Errorf("POST went to %s?%s", p.path, p.query)
		}
	})
	t.Run("relative to the SSE path", func(t *testing.T) {
		ls := newLegacyServer(t, "messages?id=2")
		s := connectLegacy(t, &SSE{URL: ls.srv.URL + "/mcp/sse"})
		if err := s.Write(context.Background(), mustRequest(t, 1, "ping")); err != nil {
			t.Fatal(err)
		}
		if p := <-ls.posts; p.path != "/mcp/messages" || p.query != "id=2" {
			t.Errorf("POST went to %s?%s, want /mcp/messages?id=2", p.path, p.query)
		}
	})
	t.Run("other origin refused", func(t *testing.T) {
		other := newLegacyServer(t, "/unused")
		ls := newLegacyServer(t, other.srv.URL+"/message?sessionId=secret-session")
		err := connectErr(context.Background(), &SSE{URL: ls.url()})
		if err == nil || !strings.Contains(err.Error(), "another origin") {
			t.Fatalf("Connect = %v, want an another-origin refusal", err)
		}
		if strings.Contains(err.Error(), "secret-session") {
			t.Errorf("error quotes the session id: %v", err)
		}
		select {
		case p := <-other.posts:
			t.Errorf("the other origin got a POST: %+v", p)
		default:
		}
		<-ls.getDone // the refused GET was closed
	})
	t.Run("empty endpoint", func(t *testing.T) {
		ls := newLegacyServer(t, "")
		ls.before = "event: endpoint\ndata:\n\n"
		err := connectErr(context.Background(), &SSE{URL: ls.url()})
		if err == nil || !strings.Contains(err.Error(), "endpoint event is empty") {
			t.Fatalf("Connect = %v", err)
		}
	})
	t.Run("a flood before the endpoint is refused", func(t *testing.T) {
		ls := newLegacyServer(t, "/m")
		ls.before = strings.Repeat(message(`{"jsonrpc":"2.0","method":"early"}`), jsonrpc.DefaultQueueLength+1)
		err := connectErr(context.Background(), &SSE{URL: ls.url()})
		if err == nil || !strings.Contains(err.Error(), "before its endpoint event") {
			t.Fatalf("Connect = %v", err)
		}
	})
	t.Run("messages before the endpoint are kept", func(t *testing.T) {
		ls := newLegacyServer(t, "/m")
		ls.before = ": hello\n\n" + message(`{"jsonrpc":"2.0","method":"early"}`)
		s := connectLegacy(t, &SSE{URL: ls.url()})
		m, err := s.Read(context.Background())
		if n, ok := m.(*jsonrpc.Notification); err != nil || !ok || n.Method != "early" {
			t.Fatalf("Read = %#v, %v", m, err)
		}
	})
}

func TestLegacySSEArrayAndBadData(t *testing.T) {
	ls := newLegacyServer(t, "/m")
	s := connectLegacy(t, &SSE{URL: ls.url()})
	ctx := context.Background()
	ls.events <- message(`[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"result":{}}]`)
	ls.events <- message(`{not json`)
	ls.events <- "event: endpoint\ndata: /elsewhere\n\n" // ignored after the first
	ls.events <- "event: message\ndata:\n\n"             // empty: no message
	ls.events <- message(`{"jsonrpc":"2.0","method":"b"}`)

	m, err := s.Read(ctx)
	if n, ok := m.(*jsonrpc.Notification); err != nil || !ok || n.Method != "a" {
		t.Fatalf("Read 1 = %#v, %v", m, err)
	}
	m, err = s.Read(ctx)
	if r, ok := m.(*jsonrpc.Response); err != nil || !ok || r.ID != jsonrpc.Int64ID(2) {
		t.Fatalf("Read 2 = %#v, %v", m, err)
	}
	_, err = s.Read(ctx)
	var de *jsonrpc.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("Read 3 error = %v, want a *jsonrpc.DecodeError", err)
	}
	m, err = s.Read(ctx)
	if n, ok := m.(*jsonrpc.Notification); err != nil || !ok || n.Method != "b" {
		t.Fatalf("Read after the bad event = %#v, %v; the stream must go on", m, err)
	}
}

func TestLegacySSEStreamEnd(t *testing.T) {
	ls := newLegacyServer(t, "/m")
	s := connectLegacy(t, &SSE{URL: ls.url()})
	ls.events <- message(`{"jsonrpc":"2.0","method":"last"}`)
	close(ls.events)
	ctx := context.Background()
	if m, err := s.Read(ctx); err != nil {
		t.Fatalf("Read = %#v, %v; the message before the end must come first", m, err)
	}
	for range 2 {
		_, err := s.Read(ctx)
		if !errors.Is(err, errLegacySSEEnded) || !strings.Contains(err.Error(), "legacy SSE stream ended") {
			t.Fatalf("Read after the end = %v, want errLegacySSEEnded", err)
		}
	}
	if err := s.Write(ctx, mustRequest(t, 1, "ping")); !errors.Is(err, errLegacySSEEnded) {
		t.Fatalf("Write after the end = %v, want errLegacySSEEnded", err)
	}
}

func TestLegacySSEClose(t *testing.T) {
	ls := newLegacyServer(t, "/m")
	s, err := (&SSE{URL: ls.url()}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	readErr := make(chan error, 1)
	go func() {
		_, err := s.Read(context.Background())
		readErr <- err
	}()
	var wg sync.WaitGroup
	for range 3 { // concurrent and repeated Close
		wg.Add(1)
		go func() { defer wg.Done(); s.Close() }()
	}
	wg.Wait()
	if err := <-readErr; !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("pending Read = %v, want jsonrpc.ErrClosed", err)
	}
	<-ls.getDone // the server saw the GET end
	if err := s.Write(context.Background(), mustRequest(t, 1, "ping")); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Fatalf("Write after Close = %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close = %v", err)
	}
}

func TestLegacySSEPostReplies(t *testing.T) {
	for _, tc := range []struct {
		status  int
		body    string
		wantErr string
	}{
		{http.StatusAccepted, "Accepted", ""},
		{http.StatusOK, "", ""},
		{http.StatusNoContent, "", ""},
		{http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"No transport found for sessionId"}}`, "No transport found for sessionId"},
		{http.StatusInternalServerError, "boom", "500"},
	} {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			ls := newLegacyServer(t, "/m")
			ls.setPostReply(tc.status, tc.body)
			s := connectLegacy(t, &SSE{URL: ls.url()})
			err := s.Write(context.Background(), mustRequest(t, 1, "ping"))
			<-ls.posts
			if tc.wantErr == "" {
				if err != nil {
					t.Fatalf("Write = %v", err)
				}
				return
			}
			var he *HTTPError
			if !errors.As(err, &he) || he.StatusCode != tc.status || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Write = %v, want an *HTTPError %d mentioning %q", err, tc.status, tc.wantErr)
			}
			if tc.status == http.StatusBadRequest && (he.RPCError == nil || he.RPCError.Code != -32000) {
				t.Errorf("RPCError = %v, want the -32000 error from the body", he.RPCError)
			}
		})
	}
}

func TestLegacySSEConnectFailures(t *testing.T) {
	t.Run("GET status", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		defer srv.Close()
		u := strings.Replace(srv.URL, "http://", "http://user:hunter2@", 1) + "/sse?token=opensesame"
		err := connectErr(context.Background(), &SSE{URL: u})
		var he *HTTPError
		if !errors.As(err, &he) || he.StatusCode != 404 || he.Method != "GET" {
			t.Fatalf("Connect = %v, want an *HTTPError 404 for GET", err)
		}
		for _, secret := range []string{"hunter2", "opensesame"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("error leaks %q: %v", secret, err)
			}
		}
	})
	t.Run("not an event stream", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, "{}")
		}))
		defer srv.Close()
		err := connectErr(context.Background(), &SSE{URL: srv.URL})
		if err == nil || !strings.Contains(err.Error(), "not text/event-stream") {
			t.Fatalf("Connect = %v", err)
		}
	})
	t.Run("stream ends before the endpoint", func(t *testing.T) {
		ls := newLegacyServer(t, "")
		close(ls.events)
		err := connectErr(context.Background(), &SSE{URL: ls.url()})
		if !errors.Is(err, errLegacySSEEnded) || !strings.Contains(err.Error(), "before its endpoint event") {
			t.Fatalf("Connect = %v", err)
		}
	})
	t.Run("connect ctx ends while waiting for the endpoint", func(t *testing.T) {
		ls := newLegacyServer(t, "")
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-ls.gets; cancel() }()
		err := connectErr(ctx, &SSE{URL: ls.url()})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "no endpoint event") {
			t.Fatalf("Connect = %v, want a context.Canceled naming the missing endpoint", err)
		}
		<-ls.getDone
	})
	t.Run("bad configuration", func(t *testing.T) {
		for _, tc := range []struct {
			tr   SSE
			want string
		}{
			{SSE{}, "needs a URL"},
			{SSE{URL: "ftp://x/sse"}, "scheme must be http or https"},
			{SSE{URL: "http:///sse"}, "has no host"},
			{SSE{URL: "http://h/sse", Headers: http.Header{"X-Key": {"secret\r\nInjected: 1"}}}, `header "X-Key"`},
		} {
			err := connectErr(context.Background(), &tc.tr)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Connect(%+v) = %v, want %q", tc.tr.URL, err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "secret") {
				t.Errorf("error leaks a header value: %v", err)
			}
		}
	})
}

func TestLegacySSEMaxEventSize(t *testing.T) {
	ls := newLegacyServer(t, "/m")
	s := connectLegacy(t, &SSE{URL: ls.url(), MaxEventSize: 64})
	ls.events <- message(`{"jsonrpc":"2.0","method":"` + strings.Repeat("x", 100) + `"}`)
	_, err := s.Read(context.Background())
	if !errors.Is(err, sse.ErrEventTooLarge) || !errors.Is(err, errLegacySSEEnded) {
		t.Fatalf("Read = %v, want a terminal ErrEventTooLarge", err)
	}
}

func TestLegacySSERedirectDropsCredentials(t *testing.T) {
	// The SSE URL redirects to another origin, which must not see the
	// Authorization header nor any configured header.
	other := newLegacyServer(t, "/m")
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.url(), http.StatusTemporaryRedirect)
	}))
	defer front.Close()
	err := connectErr(context.Background(), &SSE{URL: front.URL + "/sse", Headers: http.Header{"Authorization": {"Bearer tok"}, "X-Api-Key": {"k"}}})
	got := <-other.gets
	if got.Get("Authorization") != "" || got.Get("X-Api-Key") != "" {
		t.Errorf("credentials followed the redirect to another origin: %v", got)
	}
	// The endpoint then resolves to the other origin, which is refused.
	if err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Errorf("Connect = %v, want the endpoint on another origin refused", err)
	}
}

func TestLegacySSEWriteHonoursContext(t *testing.T) {
	block := make(chan struct{})
	endpointSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/event-stream")
			sse.NewWriter(w).WriteEvent(sse.Event{Type: "endpoint", Data: []byte("/m")})
			<-r.Context().Done()
			return
		}
		select { // a POST that never gets an answer
		case <-block:
		case <-r.Context().Done():
		}
	}))
	// Cleanups run last-in first-out: the stream closes (ending the GET)
	// before the server waits for its handlers.
	t.Cleanup(endpointSrv.Close)
	t.Cleanup(func() { close(block) })
	s := connectLegacy(t, &SSE{URL: endpointSrv.URL + "/sse"})
	ctx, cancel := context.WithCancel(context.Background())
	req := mustRequest(t, 1, "ping")
	done := make(chan error, 1)
	go func() { done <- s.Write(ctx, req) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Write = %v, want context.Canceled", err)
	}
}
