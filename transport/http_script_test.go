package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// scriptServer is an httptest server that answers from a script of
// expected requests. Each step matches at most one request; among the
// unused steps that match, the first declared wins. A request no step
// matches fails the test (and gets 500), and so does a step that never
// matched by the end of the test. An unscripted DELETE is accepted.
type httpScript struct {
	t   *testing.T
	srv *httptest.Server

	mu    sync.Mutex
	steps []*httpStep
	order []string // "POST <method>", "GET", "DELETE" in arrival order
}

// seenReq is a request as the server saw it.
type httpSeenReq struct {
	Method string // HTTP method
	Header http.Header
	Body   []byte
	Msg    jsonrpc.Message // decoded POST body
	r      *http.Request
}

// rpcMethod is the JSON-RPC method of a POSTed request or notification,
// "response" for a response, "" otherwise.
func (r *httpSeenReq) rpcMethod() string {
	switch m := r.Msg.(type) {
	case *jsonrpc.Request:
		return m.Method
	case *jsonrpc.Notification:
		return m.Method
	case *jsonrpc.Response:
		return "response"
	}
	return ""
}

func (r *httpSeenReq) requestID() jsonrpc.ID {
	if m, ok := r.Msg.(*jsonrpc.Request); ok {
		return m.ID
	}
	return jsonrpc.ID{}
}

type httpStep struct {
	name  string
	match func(*httpSeenReq) bool
	reply func(w http.ResponseWriter, r *httpSeenReq)
	hit   chan struct{}
	req   *httpSeenReq // set before hit is closed
	used  bool
}

func newHTTPScript(t *testing.T) *httpScript {
	t.Helper()
	s := &httpScript{t: t}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(func() {
		s.srv.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, st := range s.steps {
			if !st.used {
				t.Errorf("expected request %q never came (requests seen: %v)", st.name, s.order)
			}
		}
	})
	return s
}

func (s *httpScript) URL() string { return s.srv.URL + "/mcp" }

// on adds a step.
func (s *httpScript) on(name string, match func(*httpSeenReq) bool, reply func(http.ResponseWriter, *httpSeenReq)) *httpStep {
	st := &httpStep{name: name, match: match, reply: reply, hit: make(chan struct{})}
	s.mu.Lock()
	s.steps = append(s.steps, st)
	s.mu.Unlock()
	return st
}

func (s *httpScript) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := &httpSeenReq{Method: r.Method, Header: r.Header.Clone(), Body: body, r: r}
	if r.Method == http.MethodPost {
		m, err := jsonrpc.DecodeMessage(body)
		if err != nil {
			s.t.Errorf("the client POSTed an invalid message: %v", err)
		}
		req.Msg = m
	}
	s.mu.Lock()
	label := r.Method
	if rm := req.rpcMethod(); rm != "" {
		label += " " + rm
	}
	s.order = append(s.order, label)
	var found *httpStep
	for _, st := range s.steps {
		if !st.used && st.match(req) {
			found = st
			st.used = true
			st.req = req
			break
		}
	}
	s.mu.Unlock()
	if found == nil && r.Method == http.MethodDelete {
		// Close ends every session with DELETE; tests that care about it
		// script it, the others let it through.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if found == nil {
		s.t.Errorf("unexpected request %s (headers %v, body %s)", label, r.Header, body)
		http.Error(w, "unexpected request", http.StatusInternalServerError)
		return
	}
	close(found.hit)
	found.reply(w, req)
}

// requestOrder returns the arrival order so far.
func (s *httpScript) requestOrder() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.order...)
}

// Matchers.

func httpIsPOST(method string) func(*httpSeenReq) bool {
	return func(r *httpSeenReq) bool { return r.Method == http.MethodPost && r.rpcMethod() == method }
}

func httpIsGET(lastEventID string) func(*httpSeenReq) bool {
	return func(r *httpSeenReq) bool {
		return r.Method == http.MethodGet && r.Header.Get("Last-Event-ID") == lastEventID
	}
}

func httpIsDELETE(r *httpSeenReq) bool { return r.Method == http.MethodDelete }

// Replies.

func httpReplyStatus(code int) func(http.ResponseWriter, *httpSeenReq) {
	return func(w http.ResponseWriter, _ *httpSeenReq) { w.WriteHeader(code) }
}

// replyJSON answers with a JSON body; a "%ID%" in body becomes the id of
// the request being answered.
func httpReplyJSON(code int, body string, header ...string) func(http.ResponseWriter, *httpSeenReq) {
	return func(w http.ResponseWriter, r *httpSeenReq) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		io.WriteString(w, httpWithID(body, r))
	}
}

func httpWithID(body string, r *httpSeenReq) string {
	if !strings.Contains(body, "%ID%") {
		return body
	}
	id, _ := json.Marshal(r.requestID())
	return strings.ReplaceAll(body, "%ID%", string(id))
}

// ev builds an SSE event; data may use %ID%.
type httpEv struct {
	id    string
	retry time.Duration
	data  string
}

// replySSE streams events, then either ends the reply (hold nil) or keeps
// it open until the client goes away, closing hold then.
func httpReplySSE(hold chan struct{}, events []httpEv, header ...string) func(http.ResponseWriter, *httpSeenReq) {
	return func(w http.ResponseWriter, r *httpSeenReq) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		sw := sse.NewWriter(w)
		for _, e := range events {
			out := sse.Event{Data: []byte(httpWithID(e.data, r))}
			if e.id != "" {
				out.ID, out.HasID = e.id, true
			}
			if e.retry > 0 {
				out.Retry, out.HasRetry = e.retry, true
			}
			if err := sw.WriteEvent(out); err != nil {
				return
			}
		}
		if hold != nil {
			<-r.r.Context().Done()
			close(hold)
		}
	}
}

// Client side helpers.

// sleepLog records the reconnection delays the transport asks for and
// returns at once.
type httpSleepLog struct {
	mu sync.Mutex
	ds []time.Duration
}

func (l *httpSleepLog) sleep(ctx context.Context, d time.Duration) error {
	l.mu.Lock()
	l.ds = append(l.ds, d)
	l.mu.Unlock()
	return ctx.Err()
}

func (l *httpSleepLog) delays() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]time.Duration(nil), l.ds...)
}

// hookLog collects ErrorHook reports and signals each on a channel.
type httpHookLog struct {
	mu   sync.Mutex
	errs []error
	ch   chan error
}

func newHTTPHookLog() *httpHookLog { return &httpHookLog{ch: make(chan error, 100)} }

func (h *httpHookLog) hook(err error) {
	h.mu.Lock()
	h.errs = append(h.errs, err)
	h.mu.Unlock()
	select {
	case h.ch <- err:
	default:
	}
}

func (h *httpHookLog) all() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]error(nil), h.errs...)
}

// waitHook waits for a report whose text contains substr.
func (h *httpHookLog) waitHook(t *testing.T, substr string) error {
	t.Helper()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	for {
		select {
		case err := <-h.ch:
			if strings.Contains(err.Error(), substr) {
				return err
			}
		case <-timeout.C:
			t.Fatalf("no ErrorHook report containing %q; got %v", substr, h.all())
			return nil
		}
	}
}

const httpTestToken = "Bearer tok-SECRET-123"

// testConfig is a transport for srv with recorded sleeps, fixed jitter
// and a hook log; the listener is off unless a test turns it on.
func httpTestConfig(srv *httpScript) (*StreamableHTTP, *httpSleepLog, *httpHookLog) {
	sl := &httpSleepLog{}
	hl := newHTTPHookLog()
	return &StreamableHTTP{
		URL:             srv.URL(),
		Headers:         http.Header{"Authorization": {httpTestToken}, "X-Api-Key": {"key-SECRET-456"}},
		DisableListener: true,
		ErrorHook:       hl.hook,
		sleep:           sl.sleep,
		jitter:          func() float64 { return 0.5 },
	}, sl, hl
}

func httpConnect(t *testing.T, cfg *StreamableHTTP) *httpStream {
	t.Helper()
	st, err := cfg.Connect(context.Background())
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	return st.(*httpStream)
}

func httpWaitHit(t *testing.T, st *httpStep) *httpSeenReq {
	t.Helper()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	select {
	case <-st.hit:
		return st.req
	case <-timeout.C:
		t.Fatalf("request %q did not come", st.name)
		return nil
	}
}

// httpWaitErr returns what errc carries, failing on a hang.
func httpWaitErr(t *testing.T, errc <-chan error, what string) error {
	t.Helper()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	select {
	case err := <-errc:
		return err
	case <-timeout.C:
		t.Fatalf("%s did not return", what)
		return nil
	}
}

func httpWaitClosed(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	select {
	case <-ch:
	case <-timeout.C:
		t.Fatalf("%s did not happen", what)
	}
}

func httpRequest(t *testing.T, id int64, method string, params any) *jsonrpc.Request {
	t.Helper()
	r, err := jsonrpc.NewRequest(jsonrpc.Int64ID(id), method, params)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func httpNotification(t *testing.T, method string, params any) *jsonrpc.Notification {
	t.Helper()
	n, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func httpWrite(t *testing.T, s *httpStream, m jsonrpc.Message) {
	t.Helper()
	if err := s.Write(context.Background(), m); err != nil {
		t.Fatalf("Write: %v", err)
	}
}

// read returns the next message, failing on errors and on a hang.
func httpRead(t *testing.T, s *httpStream) jsonrpc.Message {
	t.Helper()
	return httpReadWithin(t, s, 10*time.Second)
}

// httpReadWithin is httpRead for a reply that takes long to arrive: a
// limit's worth of hostile bytes under the race detector on a loaded
// machine took more than 10s in CI.
func httpReadWithin(t *testing.T, s *httpStream, d time.Duration) jsonrpc.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	m, err := s.Read(ctx)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return m
}

func httpReadResponse(t *testing.T, s *httpStream, id int64) *jsonrpc.Response {
	t.Helper()
	m := httpRead(t, s)
	r, ok := m.(*jsonrpc.Response)
	if !ok {
		t.Fatalf("Read: got %T %+v, want the response to %d", m, m, id)
	}
	if r.ID != jsonrpc.Int64ID(id) {
		t.Fatalf("Read: got the response to %s, want %d", r.ID, id)
	}
	return r
}

// initParams are the params of every test's initialize.
var httpInitParams = map[string]any{
	"protocolVersion": "2025-11-25",
	"capabilities":    map[string]any{},
	"clientInfo":      map[string]any{"name": "t", "version": "1"},
}

const httpInitResult = `{"jsonrpc":"2.0","id":%ID%,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}`

// handshake scripts and performs initialize (session sid) and
// notifications/initialized, and sets the protocol version.
func httpHandshake(t *testing.T, srv *httpScript, s *httpStream, sid string) {
	t.Helper()
	var hdr []string
	if sid != "" {
		hdr = []string{"Mcp-Session-Id", sid}
	}
	srv.on("initialize", httpIsPOST("initialize"), httpReplyJSON(200, httpInitResult, hdr...))
	srv.on("initialized", httpIsPOST("notifications/initialized"), httpReplyStatus(http.StatusAccepted))
	httpWrite(t, s, httpRequest(t, 1, "initialize", httpInitParams))
	httpReadResponse(t, s, 1)
	s.SetProtocolVersion("2025-11-25")
	httpWrite(t, s, httpNotification(t, "notifications/initialized", nil))
}

func httpEncode(t *testing.T, m jsonrpc.Message) string {
	t.Helper()
	b, err := jsonrpc.EncodeMessage(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func httpAssertHeader(t *testing.T, r *httpSeenReq, key, want string) {
	t.Helper()
	if got := r.Header.Get(key); got != want {
		t.Errorf("%s %s: header %s = %q, want %q", r.Method, r.rpcMethod(), key, got, want)
	}
}

func httpErrorResponse(t *testing.T, m jsonrpc.Message, id int64) *jsonrpc.Error {
	t.Helper()
	r, ok := m.(*jsonrpc.Response)
	if !ok || r.ID != jsonrpc.Int64ID(id) || r.Error == nil {
		t.Fatalf("got %T %+v, want an error response to %d", m, m, id)
	}
	return r.Error
}

func httpMust[T any](v T, err error) T {
	if err != nil {
		panic(fmt.Sprintf("test setup: %v", err))
	}
	return v
}
