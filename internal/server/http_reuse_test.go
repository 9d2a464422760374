package server

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// TestSSEReplyKeepsTheConnection: a client that stops reading a reply's
// event stream at its response (as package transport does) must find the
// stream's end already there, so that its connection goes back to the
// pool. When the last event was flushed on its own, the client closed the
// body before the chunked end arrived and net/http dropped the
// connection: a new TCP connection per call (bench/NOTES.md, "The gateway
// (#35), fourth round").
func TestSSEReplyKeepsTheConnection(t *testing.T) {
	core, gate := gatedCore()
	srv := NewHTTPServer(t, core, nil)
	var dials atomic.Int32
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	c := newHTTPClient(t, srv)
	c.hc = &http.Client{Transport: tr}
	c.initialize(LatestProtocolVersion)
	before := dials.Load()
	const calls = 50
	for range calls {
		resp, id := c.post("tools/call", map[string]any{"name": "gated", "arguments": map[string]any{}})
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Fatalf("Content-Type %q, want an event stream", ct)
		}
		r := sse.NewReader(resp.Body)
		if ev, err := r.Next(); err != nil || !ev.HasID || len(ev.Data) != 0 {
			t.Fatalf("call %s: want a priming event first, got %+v, %v", id, ev, err)
		}
		gate <- struct{}{}
		want := []byte(`"id":` + id.String())
		for {
			ev, err := r.Next()
			if err != nil {
				t.Fatalf("call %s: the stream ended before its response: %v", id, err)
			}
			if bytes.Contains(ev.Data, want) {
				break
			}
		}
		resp.Body.Close() // at the response, not at the stream's end
	}
	if got := dials.Load() - before; got > 1 {
		t.Fatalf("%d calls opened %d connections; want them all on one", calls, got)
	}
}

// TestSessionKeepsFewAnsweredStreams: a session kept every reply stream
// (its events, for resumption) until it ended, so a host's session behind
// the gateway grew with each call. Only the last keepEnded answered
// streams stay; the latest can still be resumed, the oldest cannot.
func TestSessionKeepsFewAnsweredStreams(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		srv := NewHTTPServer(t, NewDefault(&Options{NoRecord: true}), &HTTPOptions{JSONResponse: asJSON})
		c := newHTTPClient(t, srv)
		c.initialize(LatestProtocolVersion)
		var first, last string // the first and last calls' first event ids
		for i := range keepEnded + 10 {
			resp, id := c.post("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "hi"}})
			if asJSON {
				if m, err := jsonrpc.DecodeMessage([]byte(readAll(resp))); err != nil || m.(*jsonrpc.Response).ID != id {
					t.Fatalf("call %d: %v %v", i, m, err)
				}
				continue
			}
			events := allEvents(t, resp)
			responseTo(t, messages(t, events), id)
			if i == 0 {
				first = events[0].ID
			}
			last = events[0].ID
		}
		srv.Streamable.mu.Lock()
		o := srv.Streamable.sessions[c.session]
		srv.Streamable.mu.Unlock()
		o.mu.Lock()
		kept := len(o.streams)
		o.mu.Unlock()
		if kept > keepEnded+1 { // and the standalone stream
			t.Fatalf("JSON %v: %d calls left %d streams, want at most %d", asJSON, keepEnded+10, kept, keepEnded+1)
		}
		if asJSON {
			continue
		}
		if r := c.do(http.MethodGet, "", map[string]string{"Last-Event-ID": last}); r.StatusCode != http.StatusOK {
			t.Errorf("resuming the last call's stream: %d", r.StatusCode)
		}
		if r := c.do(http.MethodGet, "", map[string]string{"Last-Event-ID": first}); r.StatusCode != http.StatusBadRequest {
			t.Errorf("resuming a forgotten stream: %d, want 400", r.StatusCode)
		}
	}
}

// TestSSEReplyStartsInOneWrite: a reply stream's response header goes out
// with its first event (the priming event of a 2025-11-25 session), not
// in a write of its own; one write fewer per call for every host of the
// gateway, and one wake-up fewer for the host's reader. The reply's end
// is the second and last write.
func TestSSEReplyStartsInOneWrite(t *testing.T) {
	core, gate := gatedCore()
	h := core.StreamableHTTPHandler(nil)
	ts := httptest.NewUnstartedServer(h)
	var writes atomic.Int32
	ts.Listener = &countingListener{Listener: ts.Listener, writes: &writes}
	ts.Start()
	t.Cleanup(func() { h.Close(); ts.Close() })
	c := &httpClient{t: t, url: ts.URL, hc: ts.Client()}
	c.initialize(LatestProtocolVersion)

	before := writes.Load()
	resp, id := c.post("tools/call", map[string]any{"name": "gated", "arguments": map[string]any{}})
	r := sse.NewReader(resp.Body)
	if ev, err := r.Next(); err != nil || !ev.HasID || len(ev.Data) != 0 {
		t.Fatalf("want a priming event first, got %+v, %v", ev, err)
	}
	if got := writes.Load() - before; got != 1 {
		t.Fatalf("the header and the priming event took %d writes, want 1", got)
	}
	gate <- struct{}{}
	ev, err := r.Next()
	if err != nil || !bytes.Contains(ev.Data, []byte(`"id":`+id.String())) {
		t.Fatalf("want the response next, got %+v, %v", ev, err)
	}
	if got := writes.Load() - before; got != 2 {
		t.Fatalf("the reply took %d writes, want 2", got)
	}
}

// countingListener counts the writes to the connections it accepts; a
// write is counted before it starts, so that a client that has read its
// bytes finds it counted.
type countingListener struct {
	net.Listener
	writes *atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, writes: l.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int32
}

func (c *countingConn) Write(b []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(b)
}

// gatedCore is a server whose tool "gated" answers once a value is sent
// on gate: after the client has read the stream's start, as an
// upstream's answer comes later than the priming event, so that the reply
// is a write of its own.
func gatedCore() (*Server, chan<- struct{}) {
	core := NewServer(&Options{NoRecord: true})
	gate := make(chan struct{})
	core.AddTool(Tool{Name: "gated", InputSchema: schema(`{"type":"object"}`)}, func(ctx context.Context, _ *ToolRequest) (*ToolResult, error) {
		select {
		case <-gate:
			return TextResult("through"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	return core, gate
}
