package server

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// boundedServer has MaxInFlight bound and two tools: "hold", whose calls
// report on started that they run and then wait for release (or their
// cancellation), and "ask", which asks the client for its roots.
func boundedServer(bound int) (s *Server, started chan string, release chan struct{}) {
	s = NewServer(&Options{NoRecord: true, MaxInFlight: bound})
	started, release = make(chan string, 16), make(chan struct{})
	s.AddTool(Tool{Name: "hold"}, func(ctx context.Context, _ *ToolRequest) (*ToolResult, error) {
		started <- "hold"
		select {
		case <-release:
			return TextResult("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	s.AddTool(Tool{Name: "ask"}, func(ctx context.Context, req *ToolRequest) (*ToolResult, error) {
		started <- "ask"
		roots, err := req.Session.ListRoots(ctx)
		if err != nil {
			return nil, err
		}
		return TextResult(string(roots)), nil
	})
	return s, started, release
}

var holdCall = map[string]any{"name": "hold", "arguments": map[string]any{}}

// wantBusy fails unless r is the busy error for id under bound.
func wantBusy(t *testing.T, r *jsonrpc.Response, id jsonrpc.ID, bound int) {
	t.Helper()
	want := fmt.Sprintf("server busy: %d requests already in flight on this session", bound)
	if bound == 1 {
		want = "server busy: 1 request already in flight on this session"
	}
	if r == nil || r.ID != id || r.Error == nil || r.Error.Code != CodeServerBusy || !strings.Contains(r.Error.Message, want) {
		t.Fatalf("want error %d %q for %s, got %#v", CodeServerBusy, want, id, r)
	}
}

// nextResponse reads the next message, failing unless it is a response.
func nextResponse(t *testing.T, c *wireClient) *jsonrpc.Response {
	t.Helper()
	m, ok := c.next()
	r, isResp := m.(*jsonrpc.Response)
	if !ok || !isResp {
		t.Fatalf("want a response, got %#v; frames: %s", m, c.excerpt())
	}
	return r
}

// A session runs at most MaxInFlight requests at once: the ones past it
// are answered with the busy error at once, in order, while the session
// reads on, so that a cancellation (a notification) and the answer to a
// request of the server's (a response) still arrive while it is full; a
// place set free takes the next request; and the requests it runs finish
// once let go. A host that pipelined without bound made a goroutine (and,
// in the gateway, an upstream call) per request.
func TestSessionBoundsRequestsInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const bound = 3
		s, started, release := boundedServer(bound)
		defer s.Close()
		c := initialized(t, s)
		ss := s.Sessions()[0]
		held := make([]jsonrpc.ID, bound)
		for i := range held {
			held[i] = c.request("tools/call", holdCall)
		}
		for range bound {
			<-started
		}
		// Past the bound: any request, a ping as well as a call.
		over := []jsonrpc.ID{c.request("tools/call", holdCall), c.request("ping", nil)}
		for _, id := range over {
			wantBusy(t, nextResponse(t, c), id, bound)
		}
		synctest.Wait()
		select {
		case what := <-started:
			t.Fatalf("a %s call past the bound ran", what)
		default:
		}

		// A notification is read and acted on while the session is full.
		c.notify(jsonrpc.MethodCancelled, map[string]any{"requestId": held[0]})
		ctx, cancel := context.WithTimeout(context.Background(), safetyNet)
		defer cancel()
		if err := ss.WaitCancelled(ctx, held[0]); err != nil {
			t.Fatal(err)
		}
		// Its place is free again: "ask" takes it, and the session is full
		// while its request to the client waits for the answer.
		ask := c.request("tools/call", map[string]any{"name": "ask", "arguments": map[string]any{}})
		if what := <-started; what != "ask" {
			t.Fatalf("%s started, want ask", what)
		}
		m, _ := c.next()
		roots, ok := m.(*jsonrpc.Request)
		if !ok || roots.Method != "roots/list" {
			t.Fatalf("want the roots/list request of ask, got %#v", m)
		}
		full := c.request("tools/call", holdCall)
		wantBusy(t, nextResponse(t, c), full, bound)
		// The answer is a response: never refused, and ask finishes.
		resp, err := jsonrpc.NewResponse(roots.ID, map[string]any{"roots": []any{}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c.send(resp)
		if r := nextResponse(t, c); r.ID != ask || r.Error != nil {
			t.Fatalf("want the result of ask, got %#v", r)
		}

		// Those held finish when let go, and a request runs again after.
		for range bound - 1 {
			release <- struct{}{}
		}
		done := map[jsonrpc.ID]bool{}
		for range bound - 1 {
			r := nextResponse(t, c)
			if r.Error != nil {
				t.Fatalf("a held call failed: %v", r.Error)
			}
			done[r.ID] = true
		}
		if !done[held[1]] || !done[held[2]] {
			t.Fatalf("answered %v, want %s and %s", done, held[1], held[2])
		}
		c.call("ping", nil)
	})
}

// A negative MaxInFlight is no bound; zero is DefaultMaxInFlight.
func TestMaxInFlightDefaults(t *testing.T) {
	for _, tc := range []struct{ set, want int }{{0, DefaultMaxInFlight}, {-1, 0}, {5, 5}} {
		if got := NewServer(&Options{MaxInFlight: tc.set}).maxInFlight; got != tc.want {
			t.Errorf("MaxInFlight %d: bound %d, want %d", tc.set, got, tc.want)
		}
	}
	if got := NewServer(nil).maxInFlight; got != DefaultMaxInFlight {
		t.Errorf("no options: bound %d, want %d", got, DefaultMaxInFlight)
	}
}

// decodeMessageOrFail decodes one JSON-RPC message from an HTTP body or an
// event's data.
func decodeMessageOrFail(t *testing.T, b []byte) jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.DecodeMessage(b)
	if err != nil {
		t.Fatalf("decoding %q: %v", b, err)
	}
	return m
}

// rawHost is a host on raw pipes whose reading the test controls.
type rawHost struct {
	t      *testing.T
	w      *io.PipeWriter // to the server
	r      *io.PipeReader // from the server
	br     *bufio.Reader
	served chan error
}

// holdingHost serves a session of s (a boundedServer) to a rawHost, makes
// the handshake and starts one "hold" call (id 1), returning once it
// runs. The pipes close when the test ends.
func holdingHost(t *testing.T, s *Server, started chan string) *rawHost {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	t.Cleanup(func() { _ = c2sW.Close(); _ = s2cR.Close() })
	st := newLineStream(c2sR, s2cW, func() error { return errors.Join(c2sR.Close(), s2cW.Close()) })
	h := &rawHost{t: t, w: c2sW, r: s2cR, br: bufio.NewReader(s2cR), served: make(chan error, 1)}
	go func() { h.served <- s.Serve(context.Background(), st) }()
	h.line(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if l, err := readLine(h.br); err != nil || !isResponseTo(t, string(l), 0) {
		t.Fatalf("initialize: %q, %v", l, err)
	}
	h.line(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	h.line(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hold","arguments":{}}}`)
	<-started
	return h
}

func (h *rawHost) line(m string) {
	h.t.Helper()
	if _, err := io.WriteString(h.w, m+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

// A host that sends past the bound and does not read costs one writer of
// the reader's answers, not a goroutine per answer: each answer the
// reader gives up waiting for (after drainTimeout) waits in the session's
// queue instead, and every one is written, in order, once the host reads.
func TestBusyAnswersToAHostThatDoesNotReadShareOneWriter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const bound, over = 1, 5
		s, started, release := boundedServer(bound)
		defer s.Close()
		h := holdingHost(t, s, started)
		// From here on the host writes and does not read.
		for i := range over {
			h.line(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i+2))
		}
		synctest.Wait()
		ss := s.Sessions()[0]
		ss.mu.Lock()
		running := ss.running
		ss.mu.Unlock()
		if running > bound+1 {
			t.Errorf("%d pieces of work run for %d requests and %d unread answers, want %d at most (the requests and one writer)", running, bound, over, bound+1)
		}
		for i := range over {
			l, err := readLine(h.br)
			if err != nil {
				t.Fatal(err)
			}
			wantBusy(t, decodeResponse(t, string(l)), jsonrpc.Int64ID(int64(i+2)), bound)
		}
		release <- struct{}{}
		if l, err := readLine(h.br); err != nil || !isResponseTo(t, string(l), 1) {
			t.Fatalf("the held call: %q, %v", l, err)
		}
		_ = h.w.Close()
		go func() { _, _ = io.Copy(io.Discard, h.r) }()
		if err := <-h.served; err != nil {
			t.Fatalf("serving: %v", err)
		}
	})
}

// A host that never reads, and sends past the bound for as long as it
// takes maxQueuedAnswers answers to pile up (each held the reader up for
// drainTimeout), has its session ended rather than waited on (the reader
// could no longer see its input end), and Serve says why.
func TestSessionEndsWhenItsHostNeverReadsItsAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, started, _ := boundedServer(1)
		defer s.Close()
		h := holdingHost(t, s, started)
		go func() { // the host floods and never reads
			for i := range maxQueuedAnswers + 10 {
				if _, err := fmt.Fprintf(h.w, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i+2); err != nil {
					return // the server stopped reading
				}
			}
		}()
		if err := <-h.served; !errors.Is(err, errAnswersNotRead) {
			t.Fatalf("serving: %v, want %v", err, errAnswersNotRead)
		}
	})
}

// A host that waits for each answer before it sends its next request is
// never told the server is busy, even with a bound of one: the place of
// a request whose response it has read may not yet be given back (the
// worker that wrote the response is on its way), and a request that
// finds only such places waits for one instead of being refused.
func TestSequentialRequestsAreNeverBusy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, _, _ := boundedServer(1)
		defer s.Close()
		c := initialized(t, s)
		for range 100 {
			c.call("ping", nil)
		}
	})
}
