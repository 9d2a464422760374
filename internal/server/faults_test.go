package server

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func TestParseFault(t *testing.T) {
	good := map[string]Fault{
		"crash":                        {Kind: FaultCrash},
		"never-answer:tools/list":      {Kind: FaultNeverAnswer, Target: "tools/list"},
		"duplicate-response*":          {Kind: FaultDuplicateResponse, Sticky: true},
		"flood-stderr=8MiB":            {Kind: FaultFloodStderr, Size: 8 << 20},
		"huge-notification:echo=10*":   {Kind: FaultHugeNotification, Target: "echo", Size: 10, Sticky: true},
		" malformed-line:ping ":        {Kind: FaultMalformedLine, Target: "ping"},
		"unknown-id:slow":              {Kind: FaultUnknownID, Target: "slow"},
		"flood-stderr=3KiB":            {Kind: FaultFloodStderr, Size: 3 << 10},
		"flood-notifications:echo=500": {Kind: FaultFloodNotifications, Target: "echo", Size: 500},
	}
	for spec, want := range good {
		got, err := ParseFault(spec)
		if err != nil || got != want {
			t.Errorf("ParseFault(%q) = %+v, %v; want %+v", spec, got, err, want)
		}
		again, err := ParseFault(got.String())
		if err != nil || again != got {
			t.Errorf("round trip of %q through %q: %+v, %v", spec, got.String(), again, err)
		}
	}
	bad := map[string]string{
		"explode":              `unknown kind "explode"`,
		"crash=5":              "takes no size",
		"flood-stderr=lots":    "not a positive number",
		"flood-stderr=0":       "not a positive number",
		"flood-stderr=9999MiB": "larger than 2 GiB",
		"":                     "unknown kind",
	}
	for spec, want := range bad {
		if _, err := ParseFault(spec); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "mcptest: fault") {
			t.Errorf("ParseFault(%q) error %v, want one mentioning %q", spec, err, want)
		}
	}
	list, err := ParseFaults("crash:slow, ,never-answer:ping*")
	if err != nil || len(list) != 2 || list[1] != (Fault{Kind: FaultNeverAnswer, Target: "ping", Sticky: true}) {
		t.Errorf("ParseFaults: %+v, %v", list, err)
	}
	if _, err := ParseFaults("crash,bogus"); err == nil {
		t.Errorf("ParseFaults with a bad item should fail")
	}
}

func TestFaultMalformedLine(t *testing.T) {
	s := NewDefault(&Options{Faults: []Fault{{Kind: FaultMalformedLine, Target: "echo"}}})
	c := initialized(t, s) // the targeted fault leaves initialize alone
	id := c.request("tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "m"}})
	line, _ := c.nextLine()
	if _, err := jsonrpc.DecodeMessage([]byte(line)); err == nil {
		t.Fatalf("first line after the call is valid JSON-RPC: %s", line)
	}
	m, _ := c.next()
	if r, ok := m.(*jsonrpc.Response); !ok || r.ID != id || r.Error != nil {
		t.Fatalf("after the garbage: %#v", m)
	}
	// One-shot: the next echo is clean.
	if r := c.toolCall("echo", map[string]string{"message": "again"}); r.text() != "again" {
		t.Errorf("second echo %+v", r)
	}
	if len(s.Faults()) != 0 {
		t.Errorf("one-shot fault still armed: %v", s.Faults())
	}
}

func TestFaultUnknownIDAndDuplicate(t *testing.T) {
	s := NewDefault(nil)
	c := initialized(t, s)
	s.Fault(Fault{Kind: FaultUnknownID})
	id := c.request("ping", nil)
	m, _ := c.next()
	if r, ok := m.(*jsonrpc.Response); !ok || r.ID != jsonrpc.StringID("mcptest-unknown-id") {
		t.Fatalf("want the stray response first, got %#v", m)
	}
	c.await(id)

	s.Fault(Fault{Kind: FaultDuplicateResponse, Target: "ping", Sticky: true})
	for range 2 {
		id := c.request("ping", nil)
		first, _ := c.nextLine()
		second, _ := c.nextLine()
		if first != second || !strings.Contains(first, `"id":`+id.String()) {
			t.Errorf("duplicate: %q then %q", first, second)
		}
	}
	if len(s.Faults()) != 1 {
		t.Errorf("sticky fault disarmed: %v", s.Faults())
	}
	s.ClearFaults()
	id = c.request("ping", nil)
	c.await(id)
	c.call("ping", nil) // had a duplicate come, await would have failed on it
}

func TestFaultNeverAnswer(t *testing.T) {
	s := NewDefault(nil)
	c, done := pipeClient(t, s)
	c.initialize(LatestProtocolVersion)
	s.Fault(Fault{Kind: FaultNeverAnswer, Target: "slow"})
	silent := c.request("tools/call", map[string]any{"name": "slow", "arguments": map[string]int{"steps": 0}})
	if r := c.toolCall("slow", map[string]int{"steps": 0}); r.text() != "done after 0 steps" {
		t.Errorf("second slow call: %+v", r)
	}
	_ = c.w.Close()
	for {
		m, ok := c.next()
		if !ok {
			break
		}
		if r, isResp := m.(*jsonrpc.Response); isResp && r.ID == silent {
			t.Errorf("never-answer request got %#v", r)
		}
	}
	if err := done.wait(t); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

func TestFaultCrashInProcess(t *testing.T) {
	s := NewDefault(&Options{Faults: []Fault{{Kind: FaultCrash, Target: "tools/list"}}})
	c, done := pipeClient(t, s)
	c.initialize(LatestProtocolVersion)
	c.request("tools/list", nil)
	if line, ok := c.nextLine(); ok {
		t.Errorf("after the crash the server still wrote %q", line)
	}
	if err := done.wait(t); !errors.Is(err, ErrCrashed) {
		t.Errorf("Serve returned %v, want ErrCrashed", err)
	}
}

// syncBuffer is a bytes.Buffer safe for the server's writes and the test's reads.
type syncBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	grown chan struct{} // closed and replaced by each Write; made on first use
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.grown != nil {
		close(s.grown)
		s.grown = nil
	}
	return s.b.Write(p)
}

// waitLen waits until the buffer holds at least n bytes, or ctx ends, and
// returns its length. A child's stderr is copied by a goroutine of
// os/exec, which may lag behind what the child wrote to stdout.
func (s *syncBuffer) waitLen(ctx context.Context, n int) int {
	for {
		s.mu.Lock()
		l := s.b.Len()
		if l >= n {
			s.mu.Unlock()
			return l
		}
		if s.grown == nil {
			s.grown = make(chan struct{})
		}
		grown := s.grown
		s.mu.Unlock()
		select {
		case <-grown:
		case <-ctx.Done():
			return l
		}
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

func TestFaultFloodStderr(t *testing.T) {
	var stderr syncBuffer
	s := NewDefault(&Options{Stderr: &stderr, Faults: []Fault{{Kind: FaultFloodStderr, Target: "ping"}}})
	c := initialized(t, s)
	if stderr.Len() != 0 {
		t.Fatalf("stderr written before the fault fired")
	}
	c.call("ping", nil)
	// The flood happens before the request is handled, so before the answer.
	if stderr.Len() != DefaultFloodSize {
		t.Errorf("stderr got %d bytes, want %d", stderr.Len(), DefaultFloodSize)
	}
}

func TestFaultHugeNotification(t *testing.T) {
	s := NewDefault(&Options{Faults: []Fault{{Kind: FaultHugeNotification, Target: "echo", Size: 1 << 20}}})
	c := initialized(t, s)
	if r := c.toolCall("echo", map[string]string{"message": "after"}); r.text() != "after" {
		t.Errorf("echo %+v", r)
	}
	if len(c.notes) != 1 || c.notes[0].Method != "notifications/message" || len(c.notes[0].Params) < 1<<20 {
		t.Fatalf("notes before the response: %v", methodsOf(c.notes))
	}
}

func TestHugeMessages64MiB(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 128 MiB through pipes")
	}
	// The frames are checked by their shape, not decoded: encoding/json
	// needs tens of seconds for 64 MiB under the race detector.
	s := NewDefault(nil)
	c := initialized(t, s)
	id := c.request("tools/call", map[string]any{"name": "large", "arguments": map[string]int{"bytes": 64 << 20}})
	line, _ := c.nextLine()
	prefix := `{"jsonrpc":"2.0","id":` + id.String() + `,"result":{"content":[{"type":"text","text":"xxx`
	if !strings.HasPrefix(line, prefix) || !strings.HasSuffix(line, `xxx"}]}}`) || len(line) != len(prefix)-3+64<<20+len(`"}]}}`) {
		t.Errorf("large response: %d bytes starting %.100q", len(line), line)
	}
	s.Fault(Fault{Kind: FaultHugeNotification})
	id = c.request("ping", nil)
	line, _ = c.nextLine()
	if !strings.HasPrefix(line, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","logger":"mcptest","data":"xxx`) || len(line) < DefaultHugeSize {
		t.Errorf("huge notification: %d bytes starting %.100q", len(line), line)
	}
	c.await(id)
}
