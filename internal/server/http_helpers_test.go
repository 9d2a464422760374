package server

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// httpClient speaks raw HTTP to a test server: no MCP client involved.
type httpClient struct {
	t       *testing.T
	srv     *HTTPServer
	url     string
	session string
	version string
	nextID  int64
	// hc, when set, sends the requests instead of the server's client.
	hc *http.Client
}

func newHTTPClient(t *testing.T, srv *HTTPServer) *httpClient {
	return &httpClient{t: t, srv: srv, url: srv.URL}
}

// do sends one request with the usual MCP headers, which hdr overrides (an
// empty value removes a header).
func (c *httpClient) do(method, body string, hdr map[string]string) *http.Response {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
	c.t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, method, c.url, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Content-Type", "application/json")
	} else {
		req.Header.Set("Accept", "text/event-stream")
	}
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.version != "" {
		req.Header.Set("MCP-Protocol-Version", c.version)
	}
	for k, v := range hdr {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	hc := c.hc
	if hc == nil {
		hc = c.srv.Client()
	}
	resp, err := hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, c.url, err)
	}
	c.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func (c *httpClient) requestBody(method string, params any) (string, jsonrpc.ID) {
	c.t.Helper()
	c.nextID++
	id := jsonrpc.Int64ID(c.nextID)
	req, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	b, err := jsonrpc.EncodeMessage(req)
	if err != nil {
		c.t.Fatal(err)
	}
	return string(b), id
}

func (c *httpClient) post(method string, params any) (*http.Response, jsonrpc.ID) {
	c.t.Helper()
	body, id := c.requestBody(method, params)
	return c.do(http.MethodPost, body, nil), id
}

func (c *httpClient) notify(method string) {
	c.t.Helper()
	resp := c.do(http.MethodPost, `{"jsonrpc":"2.0","method":"`+method+`"}`, nil)
	if resp.StatusCode != http.StatusAccepted {
		c.t.Fatalf("notification %s: status %d", method, resp.StatusCode)
	}
	if b, _ := io.ReadAll(resp.Body); len(b) != 0 {
		c.t.Errorf("202 with a body: %q", b)
	}
}

// initialize does the handshake and keeps the session id.
func (c *httpClient) initialize(version string) []sse.Event {
	c.t.Helper()
	resp, _ := c.post("initialize", map[string]any{"protocolVersion": version, "capabilities": map[string]any{"sampling": struct{}{}}, "clientInfo": map[string]string{"name": "http-test", "version": "1"}})
	if resp.StatusCode != http.StatusOK {
		c.t.Fatalf("initialize: status %d: %s", resp.StatusCode, readAll(resp))
	}
	c.session = resp.Header.Get("Mcp-Session-Id")
	var events []sse.Event
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		events = allEvents(c.t, resp)
	}
	c.version = version
	c.notify("notifications/initialized")
	return events
}

func readAll(resp *http.Response) string {
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// allEvents reads an event stream to its end.
func allEvents(t *testing.T, resp *http.Response) []sse.Event {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream (status %d)", ct, resp.StatusCode)
	}
	r := sse.NewReader(resp.Body)
	var out []sse.Event
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("reading events: %v (after %d events)", err, len(out))
		}
		out = append(out, ev)
	}
}

// messages decodes the data of the events that carry one.
func messages(t *testing.T, events []sse.Event) []jsonrpc.Message {
	t.Helper()
	var out []jsonrpc.Message
	for _, ev := range events {
		if len(ev.Data) == 0 {
			continue
		}
		m, err := jsonrpc.DecodeMessage(ev.Data)
		if err != nil {
			t.Fatalf("event data %.200q: %v", ev.Data, err)
		}
		out = append(out, m)
	}
	return out
}

// eventStream reads events one at a time from a stream that stays open.
type eventStream struct {
	t  *testing.T
	ch chan eventOrErr
}

type eventOrErr struct {
	ev  sse.Event
	err error
}

func openEvents(t *testing.T, resp *http.Response) *eventStream {
	t.Helper()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream (status %d: %s)", ct, resp.StatusCode, readAll(resp))
	}
	s := &eventStream{t: t, ch: make(chan eventOrErr)}
	done := make(chan struct{})
	go func() {
		defer close(s.ch)
		r := sse.NewReader(resp.Body)
		for {
			ev, err := r.Next()
			select {
			case s.ch <- eventOrErr{ev, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		close(done)
		resp.Body.Close()
		for range s.ch {
		}
	})
	return s
}

func (s *eventStream) next() (sse.Event, error) {
	s.t.Helper()
	select {
	case e, ok := <-s.ch:
		if !ok {
			return sse.Event{}, io.EOF
		}
		return e.ev, e.err
	case <-time.After(safetyNet):
		s.t.Fatalf("no event within %v", safetyNet)
		return sse.Event{}, nil
	}
}

func (s *eventStream) nextMessage() jsonrpc.Message {
	s.t.Helper()
	for {
		ev, err := s.next()
		if err != nil {
			s.t.Fatalf("stream ended: %v", err)
		}
		if len(ev.Data) == 0 {
			continue
		}
		m, err := jsonrpc.DecodeMessage(ev.Data)
		if err != nil {
			s.t.Fatalf("event data %.200q: %v", ev.Data, err)
		}
		return m
	}
}

func responseTo(t *testing.T, msgs []jsonrpc.Message, id jsonrpc.ID) *jsonrpc.Response {
	t.Helper()
	for _, m := range msgs {
		if r, ok := m.(*jsonrpc.Response); ok && r.ID == id {
			return r
		}
	}
	t.Fatalf("no response to %s among %d messages", id, len(msgs))
	return nil
}

func jsonrpcErrorBody(t *testing.T, resp *http.Response) *jsonrpc.Error {
	t.Helper()
	body := readAll(resp)
	m, err := jsonrpc.DecodeMessage([]byte(body))
	if err != nil {
		t.Fatalf("error body %q: %v", body, err)
	}
	r, ok := m.(*jsonrpc.Response)
	if !ok || r.Error == nil {
		t.Fatalf("error body %q is not an error response", body)
	}
	return r.Error
}

// openLegacy opens a legacy HTTP+SSE session on srv and returns the URL
// its messages go to; the stream closes when the test ends.
func openLegacy(t *testing.T, srv *HTTPServer) string {
	t.Helper()
	endpoint, _ := openLegacyEvents(t, srv)
	return endpoint
}

// openLegacyEvents is openLegacy that also returns the session's stream,
// read past its endpoint event.
func openLegacyEvents(t *testing.T, srv *HTTPServer) (string, *eventStream) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.SSEURL, nil)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	events := openEvents(t, resp)
	ev, err := events.next()
	if err != nil || ev.Type != "endpoint" {
		t.Fatalf("first event %+v, %v", ev, err)
	}
	return strings.TrimSuffix(srv.SSEURL, "/sse") + string(ev.Data), events
}
