//go:build unix

package transport

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Over stdio the engine reads in turns (readmode.TurnReader): calls work,
// the stream never started a read goroutine of its own, and the child's
// exit still ends the connection with its status.
func TestStdioEngineReadsInTurns(t *testing.T) {
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
	if mode != readByTurns {
		t.Fatalf("read mode %d, want reading in turns (%d)", mode, readByTurns)
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

// A caller reading its own response may give up in the middle of a line
// (its ctx ended): the next reader finishes that line, the late response is
// dropped, and the connection goes on.
func TestStdioCallerGivesUpMidLine(t *testing.T) {
	cmd := childCommand(t, childHalfLine)
	tee := &lineWatcher{want: halfWritten, seen: make(chan struct{})}
	cmd.Stderr = tee
	s, err := cmd.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	hook := make(chan error, 8)
	c := jsonrpc.NewConn(s, jsonrpc.Options{ErrorHook: func(err error) { hook <- err }})
	defer c.Close()
	// The first call lets the read goroutine hand the turn to callers.
	if _, err := c.Call(context.Background(), "first", nil, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(ctx, "half", nil, nil)
		done <- err
	}()
	<-tee.seen // half of the answer is in the pipe
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v, want context.Canceled", err)
	}
	// notifications/cancelled went out, and the child now finishes the
	// line; the next call must read past it cleanly.
	for i := range 3 {
		raw, err := c.Call(context.Background(), "again", map[string]int{"n": i}, nil)
		if err != nil {
			t.Fatalf("call %d after the cut: %v", i, err)
		}
		if string(raw) != `{"half":true}` {
			t.Fatalf("call %d = %s", i, raw)
		}
	}
	select {
	case err := <-hook:
		t.Fatalf("the engine reported %v", err)
	default:
	}
}

// lineWatcher is a stderr tee that closes seen once want was written.
type lineWatcher struct {
	mu   sync.Mutex
	buf  []byte
	want string
	seen chan struct{}
	once sync.Once
}

func (w *lineWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if strings.Contains(string(w.buf), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

// An Interrupt that comes before its turn set its deadline still ends the
// turn: a caller whose ctx ended just as it took the turn does not read
// on until its response comes (with no deadline, for ever).
func TestStdioInterruptBeforeTheTurnReads(t *testing.T) {
	c := childCommand(t, childEcho)
	c.CloseTimeout = longTimeout
	s, err := c.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr := s.(turnReader)
	tr.Interrupt()
	done := make(chan error, 1)
	go func() { done <- tr.ReadTurn(time.Time{}, refuseAll{}) }()
	timeout := time.NewTimer(10 * time.Second)
	defer timeout.Stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ReadTurn = %v, want the turn over without an error", err)
		}
	case <-timeout.C:
		s.Close() // unblocks the turn
		t.Fatal("the interrupted turn read on")
	}
}

// refuseAll is a turn's receiver that wants nothing.
type refuseAll struct{}

func (refuseAll) Receive(jsonrpc.Message, error) bool { return false }
