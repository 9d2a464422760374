package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestStreamableHandshakeAndSSEReplies(t *testing.T) {
	srv := NewHTTPServer(t, NewDefault(nil), &HTTPOptions{Retry: 250 * time.Millisecond})
	c := newHTTPClient(t, srv)
	events := c.initialize(LatestProtocolVersion)
	if c.session == "" {
		t.Fatal("no Mcp-Session-Id on the initialize reply")
	}
	// 2025-11-25: a priming event (id, retry, no data), then the response.
	if len(events) != 2 || !events[0].HasID || len(events[0].Data) != 0 || !events[0].HasRetry || events[0].Retry != 250*time.Millisecond {
		t.Fatalf("initialize events %+v", events)
	}
	if !events[1].HasID || events[1].ID == events[0].ID {
		t.Errorf("response event id %q after priming id %q", events[1].ID, events[0].ID)
	}
	if ids := srv.Streamable.SessionIDs(); !slices.Equal(ids, []string{c.session}) {
		t.Errorf("SessionIDs %v", ids)
	}

	resp, id := c.post("tools/call", map[string]any{"name": "slow", "arguments": map[string]int{"steps": 2, "delay_ms": 1}, "_meta": map[string]any{"progressToken": "p"}})
	msgs := messages(t, allEvents(t, resp))
	if len(msgs) != 3 || methodOf(msgs[0]) != jsonrpc.MethodProgress || methodOf(msgs[1]) != jsonrpc.MethodProgress {
		t.Fatalf("slow reply: %#v", msgs)
	}
	if r := decodeToolResult(t, responseTo(t, msgs, id).Result); r.text() != "done after 2 steps" {
		t.Errorf("slow result %+v", r)
	}
	// Older sessions get no priming event.
	c2 := newHTTPClient(t, srv)
	if events := c2.initialize("2025-06-18"); len(events) != 1 || len(events[0].Data) == 0 {
		t.Errorf("2025-06-18 initialize events %+v", events)
	}
}

func TestStreamableJSONResponses(t *testing.T) {
	srv := NewHTTPServer(t, NewDefault(nil), &HTTPOptions{JSONResponse: true})
	c := newHTTPClient(t, srv)
	c.initialize(LatestProtocolVersion)
	resp, id := c.post("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "json"}})
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" || resp.Header.Get("Mcp-Session-Id") != c.session {
		t.Fatalf("Content-Type %q, session %q", ct, resp.Header.Get("Mcp-Session-Id"))
	}
	m, err := jsonrpc.DecodeMessage([]byte(readAll(resp)))
	if err != nil {
		t.Fatal(err)
	}
	if r := m.(*jsonrpc.Response); r.ID != id || decodeToolResult(t, r.Result).text() != "json" {
		t.Errorf("reply %#v", r)
	}
}

func TestStreamableValidation(t *testing.T) {
	srv := NewHTTPServer(t, NewDefault(nil), nil)
	c := newHTTPClient(t, srv)
	ping, _ := c.requestBody("ping", nil)
	init, _ := c.requestBody("initialize", map[string]any{"protocolVersion": LatestProtocolVersion})
	check := func(name string, resp *http.Response, status int) {
		t.Helper()
		if resp.StatusCode != status {
			t.Errorf("%s: status %d, want %d", name, resp.StatusCode, status)
			return
		}
		if status >= 400 && status != http.StatusMethodNotAllowed {
			if e := jsonrpcErrorBody(t, resp); e.Message == "" {
				t.Errorf("%s: empty error message", name)
			}
		}
	}
	check("Accept without event-stream", c.do(http.MethodPost, init, map[string]string{"Accept": "application/json"}), http.StatusNotAcceptable)
	check("no Accept", c.do(http.MethodPost, init, map[string]string{"Accept": ""}), http.StatusNotAcceptable)
	check("text Content-Type", c.do(http.MethodPost, init, map[string]string{"Content-Type": "text/plain"}), http.StatusUnsupportedMediaType)
	check("unsupported version", c.do(http.MethodPost, init, map[string]string{"MCP-Protocol-Version": "1999-01-01"}), http.StatusBadRequest)
	check("foreign Origin", c.do(http.MethodPost, init, map[string]string{"Origin": "https://evil.example"}), http.StatusForbidden)
	check("not JSON", c.do(http.MethodPost, "{oops", nil), http.StatusBadRequest)
	check("no session", c.do(http.MethodPost, ping, nil), http.StatusBadRequest)
	check("unknown session", c.do(http.MethodPost, ping, map[string]string{"Mcp-Session-Id": "nope"}), http.StatusNotFound)
	check("PUT", c.do(http.MethodPut, "", nil), http.StatusMethodNotAllowed)
	check("loopback Origin", c.do(http.MethodPost, init, map[string]string{"Origin": "http://127.0.0.1:9"}), http.StatusOK)
	c.initialize(LatestProtocolVersion)
	check("initialize inside a session", c.do(http.MethodPost, init, nil), http.StatusBadRequest)
	check("GET without event-stream", c.do(http.MethodGet, "", map[string]string{"Accept": "application/json"}), http.StatusNotAcceptable)
	check("ping in the session", c.do(http.MethodPost, ping, nil), http.StatusOK)
	// A rejected initialize leaves no session behind.
	reject := NewHTTPServer(t, NewDefault(&Options{RejectUnsupportedVersion: true}), nil)
	c3 := newHTTPClient(t, reject)
	resp, id := c3.post("initialize", map[string]any{"protocolVersion": "1999-01-01"})
	if r := responseTo(t, messages(t, allEvents(t, resp)), id); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("rejected initialize: %#v", r)
	}
	if ids := reject.Streamable.SessionIDs(); len(ids) != 0 {
		t.Errorf("sessions after a rejected initialize: %v", ids)
	}
}

func TestStreamableRequestsOnThePOSTStreamAndTheListener(t *testing.T) {
	s := NewDefault(nil)
	srv := NewHTTPServer(t, s, nil)
	c := newHTTPClient(t, srv)
	c.initialize(LatestProtocolVersion)

	// A server request made by a tool travels on that tool call's stream;
	// its answer is a new POST.
	resp, id := c.post("tools/call", map[string]any{"name": "sample", "arguments": map[string]string{"prompt": "q"}})
	stream := openEvents(t, resp)
	req, ok := stream.nextMessage().(*jsonrpc.Request)
	if !ok || req.Method != "sampling/createMessage" {
		t.Fatalf("want sampling/createMessage on the POST stream, got %#v", req)
	}
	answer, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{"role":"assistant","model":"m","content":{"type":"text","text":"over http"}}`)})
	if r := c.do(http.MethodPost, string(answer), nil); r.StatusCode != http.StatusAccepted {
		t.Fatalf("posting the answer: %d", r.StatusCode)
	}
	if r, ok := stream.nextMessage().(*jsonrpc.Response); !ok || r.ID != id || decodeToolResult(t, r.Result).text() != "over http" {
		t.Errorf("tool result %#v", r)
	}
	if _, err := stream.next(); !errors.Is(err, io.EOF) {
		t.Errorf("the reply stream should end after the response: %v", err)
	}

	// Unrelated messages go to the GET listener, queued until it connects.
	s.AddTool(Tool{Name: "late"}, func(context.Context, *ToolRequest) (*ToolResult, error) { return nil, nil })
	get := c.do(http.MethodGet, "", nil)
	listener := openEvents(t, get)
	if m := listener.nextMessage(); methodOf(m) != "notifications/tools/list_changed" {
		t.Errorf("listener got %#v", m)
	}
	if second := c.do(http.MethodGet, "", nil); second.StatusCode != http.StatusConflict {
		t.Errorf("a second listener: %d, want 409", second.StatusCode)
	}
	ss := s.Sessions()[0]
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- ss.Ping(ctx) }()
	req, ok = listener.nextMessage().(*jsonrpc.Request)
	if !ok || req.Method != "ping" {
		t.Fatalf("want a ping on the listener, got %#v", req)
	}
	pong, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
	c.do(http.MethodPost, string(pong), nil)
	if err := <-errc; err != nil {
		t.Errorf("Ping over the listener: %v", err)
	}

	noGet := NewHTTPServer(t, NewDefault(nil), &HTTPOptions{NoGET: true})
	c2 := newHTTPClient(t, noGet)
	c2.initialize(LatestProtocolVersion)
	if r := c2.do(http.MethodGet, "", nil); r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("NoGET: %d", r.StatusCode)
	}
}

func TestStreamableCutAndResume(t *testing.T) {
	srv := NewHTTPServer(t, NewDefault(nil), &HTTPOptions{Retry: 500 * time.Millisecond})
	c := newHTTPClient(t, srv)
	c.initialize("2025-06-18") // the cut primes the stream even where priming is not the default
	srv.Streamable.CutNextStream("echo")
	resp, id := c.post("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "resumed"}})
	stream := openEvents(t, resp)
	priming, err := stream.next()
	if err != nil || !priming.HasID || len(priming.Data) != 0 || priming.Retry != 500*time.Millisecond {
		t.Fatalf("priming event %+v, %v", priming, err)
	}
	if ev, err := stream.next(); err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("after priming: %+v, %v; want the connection to break", ev, err)
	}
	get := c.do(http.MethodGet, "", map[string]string{"Last-Event-ID": priming.ID})
	events := allEvents(t, get)
	if r := responseTo(t, messages(t, events), id); decodeToolResult(t, r.Result).text() != "resumed" {
		t.Errorf("resumed reply %#v", r)
	}
	// The stream completes once; resuming again from its start replays it.
	again := allEvents(t, c.do(http.MethodGet, "", map[string]string{"Last-Event-ID": priming.ID}))
	if len(again) != len(events) || string(again[0].Data) != string(events[0].Data) {
		t.Errorf("second replay %+v", again)
	}
	for _, bad := range []string{"junk", "99-0", priming.ID + "0"} {
		if r := c.do(http.MethodGet, "", map[string]string{"Last-Event-ID": bad}); r.StatusCode != http.StatusBadRequest {
			t.Errorf("Last-Event-ID %q: %d, want 400", bad, r.StatusCode)
		}
	}
}

func TestStreamableSessionEnd(t *testing.T) {
	srv := NewHTTPServer(t, NewDefault(nil), nil)
	c := newHTTPClient(t, srv)
	c.initialize(LatestProtocolVersion)
	listener := openEvents(t, c.do(http.MethodGet, "", nil))
	if !srv.Streamable.ExpireSession(c.session) || srv.Streamable.ExpireSession(c.session) {
		t.Error("ExpireSession should report whether the session existed")
	}
	// The listener ends with the session.
	for {
		if _, err := listener.next(); err != nil {
			break
		}
	}
	ping, _ := c.requestBody("ping", nil)
	if r := c.do(http.MethodPost, ping, nil); r.StatusCode != http.StatusNotFound {
		t.Errorf("after expiry: %d, want 404", r.StatusCode)
	}
	c.session = ""
	c.initialize(LatestProtocolVersion)
	if r := c.do(http.MethodDelete, "", nil); r.StatusCode != http.StatusOK {
		t.Errorf("DELETE: %d", r.StatusCode)
	}
	if r := c.do(http.MethodPost, ping, nil); r.StatusCode != http.StatusNotFound {
		t.Errorf("after DELETE: %d, want 404", r.StatusCode)
	}
	if r := c.do(http.MethodDelete, "", nil); r.StatusCode != http.StatusNotFound {
		t.Errorf("second DELETE: %d, want 404", r.StatusCode)
	}
	keep := NewHTTPServer(t, NewDefault(nil), &HTTPOptions{NoDelete: true})
	c2 := newHTTPClient(t, keep)
	c2.initialize(LatestProtocolVersion)
	if r := c2.do(http.MethodDelete, "", nil); r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("NoDelete: %d", r.StatusCode)
	}
}

func TestStreamableFailNextAndRecording(t *testing.T) {
	srv := NewHTTPServer(t, NewDefault(nil), nil)
	c := newHTTPClient(t, srv)
	srv.Streamable.FailNext(2, HTTPFailure{Status: http.StatusTooManyRequests, RetryAfter: "1"})
	srv.Streamable.FailNext(1, HTTPFailure{Status: http.StatusServiceUnavailable, Body: "down for a moment"})
	init, _ := c.requestBody("initialize", map[string]any{"protocolVersion": LatestProtocolVersion})
	for i, want := range []int{429, 429, 503} {
		r := c.do(http.MethodPost, init, map[string]string{"Authorization": "Bearer s3cret-token"})
		if r.StatusCode != want || (want == 429 && r.Header.Get("Retry-After") != "1") {
			t.Errorf("request %d: %d (Retry-After %q), want %d", i, r.StatusCode, r.Header.Get("Retry-After"), want)
		}
		if want == 503 && readAll(r) != "down for a moment" {
			t.Errorf("503 body")
		}
	}
	c.initialize(LatestProtocolVersion)
	reqs := srv.Streamable.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests recorded, want 5", len(reqs))
	}
	first := reqs[0]
	if first.Method != http.MethodPost || first.Path != "/mcp" || first.Status != 429 || !strings.Contains(string(first.Body), "initialize") {
		t.Errorf("first request %+v", first)
	}
	if auth := first.Header.Get("Authorization"); auth != "Bearer [redacted]" {
		t.Errorf("Authorization recorded as %q", auth)
	}
	for _, r := range srv.Requests() {
		for _, vals := range r.Header {
			for _, v := range vals {
				if strings.Contains(v, "s3cret") {
					t.Errorf("the token leaked into the record: %q", v)
				}
			}
		}
	}
	if last := reqs[4]; last.Status != http.StatusAccepted || last.Header.Get("Mcp-Session-Id") != c.session || last.Header.Get("Mcp-Protocol-Version") != LatestProtocolVersion {
		t.Errorf("initialized notification %+v", last)
	}
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	defer cancel()
	if got, err := srv.Log().WaitRequests(ctx, 5); err != nil || len(got) != 5 {
		t.Errorf("WaitRequests: %d, %v", len(got), err)
	}
	short, stop := context.WithCancel(ctx)
	stop()
	if _, err := srv.Log().WaitRequests(short, 100); !errors.Is(err, context.Canceled) {
		t.Errorf("WaitRequests with a dead ctx: %v", err)
	}
}

func TestStreamableStateless(t *testing.T) {
	s := NewDefault(nil)
	srv := NewHTTPServer(t, s, &HTTPOptions{Stateless: true})
	c := newHTTPClient(t, srv)
	resp, id := c.post("tools/call", map[string]any{"name": "add", "arguments": map[string]int{"a": 1, "b": 2}})
	if resp.Header.Get("Mcp-Session-Id") != "" {
		t.Errorf("a stateless server issued a session")
	}
	if r := responseTo(t, messages(t, allEvents(t, resp)), id); decodeToolResult(t, r.Result).text() != "3" {
		t.Errorf("add: %#v", r)
	}
	if r := c.do(http.MethodGet, "", nil); r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %d", r.StatusCode)
	}
	if n := len(s.Sessions()); n != 0 {
		t.Errorf("%d sessions left behind", n)
	}
}

func TestStreamableFaults(t *testing.T) {
	s := NewDefault(nil)
	srv := NewHTTPServer(t, s, nil)
	c := newHTTPClient(t, srv)
	c.initialize(LatestProtocolVersion)

	s.Fault(Fault{Kind: FaultMalformedLine, Target: "ping"})
	resp, id := c.post("ping", nil)
	events := allEvents(t, resp)
	var data []string
	for _, ev := range events {
		if len(ev.Data) > 0 {
			data = append(data, string(ev.Data))
		}
	}
	if len(data) != 2 || json.Valid([]byte(data[0])) || !strings.Contains(data[1], `"id":`+id.String()) {
		t.Errorf("malformed-line over SSE: %q", data)
	}

	// A huge event: 64 MiB of tool output in one SSE event.
	if !testing.Short() {
		resp, _ = c.post("tools/call", map[string]any{"name": "large", "arguments": map[string]int{"bytes": 64 << 20}})
		events = allEvents(t, resp)
		if n := len(events[len(events)-1].Data); n < 64<<20 {
			t.Errorf("large over SSE: %d bytes", n)
		}
	}

	s.Fault(Fault{Kind: FaultCrash, Target: "echo"})
	resp, _ = c.post("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "x"}})
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Errorf("the crashed reply ended cleanly")
	}
	ping, _ := c.requestBody("ping", nil)
	if r := c.do(http.MethodPost, ping, nil); r.StatusCode != http.StatusNotFound {
		t.Errorf("after the crash: %d, want 404", r.StatusCode)
	}
}

func TestLegacySSE(t *testing.T) {
	s := NewDefault(nil)
	srv := NewHTTPServer(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.SSEURL, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	stream := openEvents(t, resp)
	ev, err := stream.next()
	if err != nil || ev.Type != "endpoint" || !strings.HasPrefix(string(ev.Data), "/message?sessionId=") {
		t.Fatalf("first event %+v, %v", ev, err)
	}
	endpoint := strings.TrimSuffix(srv.SSEURL, "/sse") + string(ev.Data)
	post := func(body string) *http.Response {
		t.Helper()
		r, err := srv.Client().Post(endpoint, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Body.Close()
		if b := readAll(r); r.StatusCode != http.StatusAccepted || b != "Accepted" {
			t.Fatalf("POST: %d %q", r.StatusCode, b)
		}
		return r
	}
	post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"legacy","version":"1"}}}`)
	m := stream.nextMessage()
	if r, ok := m.(*jsonrpc.Response); !ok || !strings.Contains(string(r.Result), `"2024-11-05"`) {
		t.Fatalf("initialize reply %#v", m)
	}
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"legacy"}}}`)
	if r, ok := stream.nextMessage().(*jsonrpc.Response); !ok || decodeToolResult(t, r.Result).text() != "legacy" {
		t.Errorf("echo reply %#v", r)
	}
	bad, err := srv.Client().Post(strings.Split(endpoint, "?")[0]+"?sessionId=nope", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	bad.Body.Close()
	if bad.StatusCode != http.StatusNotFound {
		t.Errorf("unknown session: %d", bad.StatusCode)
	}
	// Closing the stream ends the session.
	ss := s.Sessions()[0]
	cancel()
	<-ss.Done()
	if got := srv.Legacy.Requests(); len(got) != 5 || got[0].Method != http.MethodGet {
		t.Errorf("legacy recorded %d requests", len(got))
	}
}
