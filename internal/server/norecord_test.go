package server

import (
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
