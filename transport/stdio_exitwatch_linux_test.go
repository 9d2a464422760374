package transport

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// A server that exits while a process it started (here a shell's
// background sleep) holds its stdout and stderr open never ends its
// stdout: the exit itself must end the connection, and a call waiting for
// an answer fails with the exit status and stderr tail, as it would had
// stdout ended.
func TestStdioServerExitEndsCallsWhileAGrandchildHoldsItsPipes(t *testing.T) {
	c := forkingServer(testExecutable(t), childExitOnRequest)
	c.CloseTimeout, c.KillTimeout = shortTimeout, shortTimeout
	s := connect(t, c)
	killGroupAtCleanup(t, s.proc.proc.Pid)
	conn := jsonrpc.NewConn(s, jsonrpc.Options{})
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), longTimeout)
	defer cancel()
	noTimeout := &jsonrpc.CallOptions{Timeout: jsonrpc.NoTimeout}
	if _, err := conn.Call(ctx, "echo", map[string]bool{"up": true}, noTimeout); err != nil {
		t.Fatalf("echo: %v", err)
	}
	if pids := running(t, s.proc.proc.Pid); len(pids) != 3 {
		t.Fatalf("group runs %v, want the server, the sleep and the guard", pids)
	}
	_, err := conn.Call(ctx, "exit", nil, noTimeout)
	if ctx.Err() != nil {
		t.Fatalf("the call waited for an answer that could not come: %v", err)
	}
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("call: %v, want an *ExitError", err)
	}
	if ee.ExitCode != 3 || ee.Running || !strings.Contains(ee.StderrTail, exitWords) {
		t.Fatalf("call: %v, want exit status 3 and the stderr tail", err)
	}
}

// The same for a stream read by its own goroutine (Read, not in turns),
// with stderr drained by the shared poller or, with a tee, by a goroutine
// of the connection's own.
func TestStdioServerExitEndsReadWhileAGrandchildHoldsItsPipes(t *testing.T) {
	for _, tee := range []io.Writer{nil, io.Discard} {
		c := forkingServer(testExecutable(t), childExitOnRequest)
		c.CloseTimeout, c.KillTimeout = shortTimeout, shortTimeout
		c.Stderr = tee
		s := connect(t, c)
		killGroupAtCleanup(t, s.proc.proc.Pid)
		ctx, cancel := context.WithTimeout(context.Background(), longTimeout)
		defer cancel()
		if err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "exit"}); err != nil {
			t.Fatal(err)
		}
		_, err := s.Read(ctx)
		var ee *ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("tee %v: Read: %v, want an *ExitError", tee != nil, err)
		}
		if ee.ExitCode != 3 || !strings.Contains(ee.StderrTail, exitWords) {
			t.Fatalf("tee %v: Read: %v, want exit status 3 and the stderr tail", tee != nil, err)
		}
	}
}
