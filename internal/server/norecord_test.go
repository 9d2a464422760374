package server

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// A server with NoRecord (the gateway's) keeps nothing a client sent, so a
// long session's memory does not grow with its calls; a test server keeps
// everything.
func TestNoRecordKeepsNothing(t *testing.T) {
	for _, noRecord := range []bool{false, true} {
		s := NewDefault(&Options{NoRecord: noRecord})
		c := initialized(t, s)
		for range 3 {
			if r := c.toolCall("echo", map[string]string{"message": "hi"}); r.IsError || r.text() != "hi" {
				t.Fatalf("echo: %+v", r)
			}
		}
		c.sendRaw("this is not JSON")
		sessions := s.Sessions()
		if len(sessions) != 1 {
			t.Fatalf("%d sessions", len(sessions))
		}
		// The bad line's answer is read only after the server recorded it.
		if _, ok := c.next(); !ok {
			t.Fatal("no answer to the bad line")
		}
		got, problems := len(sessions[0].Received()), len(sessions[0].Problems())
		if noRecord && (got != 0 || problems != 0) {
			t.Errorf("NoRecord: %d messages and %d problems kept", got, problems)
		}
		if !noRecord && (got < 5 || problems != 1) {
			t.Errorf("recording: %d messages (want initialize, initialized, 3 calls) and %d problems kept", got, problems)
		}
	}
}

// A fault aimed at a tool and armed while serving applies to that tool's
// next call, although serving skipped decoding tool names until then.
func TestToolFaultArmedWhileServing(t *testing.T) {
	s := NewDefault(nil)
	c := initialized(t, s)
	if r := c.toolCall("echo", map[string]string{"message": "hi"}); r.IsError {
		t.Fatalf("echo: %+v", r)
	}
	s.Fault(Fault{Kind: FaultUnknownID, Target: "echo"})
	id := c.request("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "hi"}})
	m, _ := c.next()
	if r, ok := m.(*jsonrpc.Response); !ok || r.ID != jsonrpc.StringID("mcptest-unknown-id") {
		t.Fatalf("want the stray response first, got %#v", m)
	}
	c.await(id)
}

// Over HTTP too: with NoRecord the handlers keep no request log (a copy
// of each request's headers and body) and the server no list of
// 2026-07-28 requests, both of which grew with every call of a
// long-running server; a test server keeps both.
func TestNoRecordKeepsNoHTTPRequests(t *testing.T) {
	for _, noRecord := range []bool{false, true} {
		s := NewDefault(&Options{NoRecord: noRecord})
		hs := NewHTTPServer(t, s, nil)
		c := newHTTPClient(t, hs)
		c.initialize(LatestProtocolVersion)
		resp, id := c.post("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "hi"}})
		if r := responseTo(t, messages(t, allEvents(t, resp)), id); r.Error != nil {
			t.Fatalf("echo: %v", r.Error)
		}
		modern := newHTTPClient(t, hs)
		resp, id = modern.modernPost("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "hi"}}, nil)
		if r := modernResponse(t, resp, id); r.Error != nil {
			t.Fatalf("modern echo: %v", r.Error)
		}
		logged, kept := len(hs.Streamable.Requests()), len(s.ModernRequests())
		if noRecord && (logged != 0 || kept != 0) {
			t.Errorf("NoRecord: %d HTTP requests logged, %d modern requests kept", logged, kept)
		}
		if !noRecord && (logged != 4 || kept != 1) {
			t.Errorf("recording: %d HTTP requests logged (want initialize, initialized, 2 calls), %d modern requests kept (want 1)", logged, kept)
		}
	}
}

// A request body is read whole before it is decoded, so its size is
// bounded: a body over the bound is refused with 413 and the session goes
// on serving, with NoRecord (serve's) or not.
func TestHTTPRequestBodyIsBounded(t *testing.T) {
	for _, noRecord := range []bool{false, true} {
		s := NewDefault(&Options{NoRecord: noRecord})
		hs := NewHTTPServer(t, s, nil)
		c := newHTTPClient(t, hs)
		c.initialize(LatestProtocolVersion)
		huge := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` +
			strings.Repeat("x", maxRequestBody) + `"}}}`
		resp := c.do(http.MethodPost, huge, nil)
		if want := http.StatusRequestEntityTooLarge; noRecord && resp.StatusCode != want {
			t.Errorf("NoRecord: a body over %d bytes got %s, want %d", maxRequestBody, resp.Status, want)
		}
		if !noRecord && resp.StatusCode < 400 {
			t.Errorf("recording: a body over %d bytes got %s, want a refusal", maxRequestBody, resp.Status)
		}
		resp, id := c.post("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "hi"}})
		if r := responseTo(t, messages(t, allEvents(t, resp)), id); r.Error != nil {
			t.Fatalf("echo after the refused body: %v", r.Error)
		}
	}
}
