//go:build unix

package transport

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Over stdio the engine reads on its own goroutine through ReadLoop: calls
// work, the stream never started a read goroutine of its own, and the
// child's exit still ends the connection with its status.
func TestStdioEngineUsesReadLoop(t *testing.T) {
	cmd := childCommand(t, childFloodStderr)
	cmd.CloseTimeout = longTimeout // bounds the wait for the exit status
	s, err := cmd.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	c := jsonrpc.NewConn(s, jsonrpc.Options{})
	defer c.Close()
	for i := range 3 {
		raw, err := c.Call(context.Background(), "echo", map[string]int{"n": i}, nil)
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if want := `{"n":` + string(rune('0'+i)) + `}`; string(raw) != want {
			t.Fatalf("call %d = %s, want %s", i, raw, want)
		}
	}
	ls := s.(*stdioStream).lineStream
	ls.mu.Lock()
	mode := ls.readMode
	ls.mu.Unlock()
	if mode != readByLoop {
		t.Fatalf("read mode %d, want the engine's read loop (%d)", mode, readByLoop)
	}
	_, err = c.Call(context.Background(), "exit", nil, nil)
	if !errors.Is(err, jsonrpc.ErrClosed) || !strings.Contains(err.Error(), "status 3") {
		t.Fatalf("call that ends the child: %v, want ErrClosed naming exit status 3", err)
	}
	<-c.Done()
}

// A stream nobody reads still drains the child's output while it closes:
// a child blocked writing a large answer to stdout would otherwise never
// see the end of stdin, and Close would have to kill it.
func TestStdioCloseWithoutReadingDrains(t *testing.T) {
	// The child must exit by itself: a loaded machine may need more than
	// the default 2 s for that, and a signal would fail the test.
	c := childCommand(t, childEcho)
	c.CloseTimeout = longTimeout
	s, err := c.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The child reads the whole request while it is written, then blocks
	// writing its 256 KiB answer into a pipe nobody reads.
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "echo", Params: []byte(`{"pad":"` + strings.Repeat("x", 256<<10) + `"}`)}
	if err := s.Write(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	proc := s.(*stdioStream).proc
	<-proc.exited
	if !proc.state.Exited() || proc.state.ExitCode() != 0 {
		t.Fatalf("child ended with %v; want exit 0 at the end of stdin, not a signal", proc.state)
	}
}
