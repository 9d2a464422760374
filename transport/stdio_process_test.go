//go:build unix

package transport

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// goroutine is one goroutine of a runtime.Stack dump.
type goroutine struct {
	state string // "IO wait", "syscall", "chan receive", …
	stack string
}

// goroutinesIn returns the goroutines whose stack mentions fn.
func goroutinesIn(fn string) []goroutine {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []goroutine
	for _, g := range strings.Split(string(buf), "\n\n") {
		if !strings.Contains(g, fn) {
			continue
		}
		_, state, _ := strings.Cut(g, "[")
		state, _, _ = strings.Cut(state, "]")
		state, _, _ = strings.Cut(state, ",") // ", 2 minutes"
		out = append(out, goroutine{state: state, stack: g})
	}
	return out
}

// parkedIn waits until exactly want goroutines mention fn and none of them
// is running, runnable or in a system call, and returns them. A goroutine
// blocked in a system call for good (holding an OS thread) fails the test
// after longTimeout.
func parkedIn(t *testing.T, fn string, want int) []goroutine {
	t.Helper()
	deadline := time.Now().Add(longTimeout)
	for {
		gs := goroutinesIn(fn)
		settled := len(gs) == want
		for _, g := range gs {
			switch g.state {
			case "running", "runnable", "syscall":
				settled = false
			}
		}
		if settled {
			return gs
		}
		if time.Now().After(deadline) {
			var states []string
			for _, g := range gs {
				states = append(states, g.state)
			}
			t.Fatalf("goroutines in %s: %d in states %q, want %d parked", fn, len(gs), states, want)
		}
		runtime.Gosched()
	}
}

// An idle connection costs the process side no goroutine on Linux, where
// one goroutine drains every child's stderr, and elsewhere one, parked in
// the runtime's poller on stderr. Nobody waits for the child in a system
// call, which would hold an OS thread per connection.
func TestStdioIdleConnectionsHoldNoWaitingThread(t *testing.T) {
	const conns = 3
	for i := range conns {
		s := connect(t, childCommand(t, childEcho))
		call(t, s, int64(i), "echo", `{}`)
	}
	if runtime.GOOS == "linux" {
		parkedIn(t, "transport.(*process).", 0)
		if g := parkedIn(t, "transport.(*stderrPoller).serve", 1)[0]; g.state != "IO wait" {
			t.Fatalf("the stderr poller in state %q:\n%s", g.state, g.stack)
		}
		return
	}
	for _, g := range parkedIn(t, "transport.(*process).", conns) {
		if g.state != "IO wait" || !strings.Contains(g.stack, "(*stderrLog).drain") {
			t.Fatalf("an idle connection's process goroutine, in state %q:\n%s", g.state, g.stack)
		}
	}
}

// Children that flood stderr without a tee are drained side by side (on
// Linux by the one shared goroutine): each answers only after writing
// 4 MiB to stderr, and each exit error carries its own last words.
func TestStdioStderrFloodsWithoutTee(t *testing.T) {
	const children = 3
	streams := make([]*stdioStream, children)
	for i := range streams {
		c := childCommand(t, childFloodStderr)
		c.CloseTimeout = longTimeout // bounds the wait for the exit status
		streams[i] = connect(t, c)
	}
	ctx := context.Background()
	for round := range 2 {
		for i, s := range streams {
			req := &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(round)), Method: "work", Params: json.RawMessage(`{}`)}
			if err := s.Write(ctx, req); err != nil {
				t.Fatalf("child %d: %v", i, err)
			}
		}
		for i, s := range streams {
			if m, err := s.Read(ctx); err != nil {
				t.Fatalf("child %d, round %d: %v", i, round, err)
			} else if _, ok := m.(*jsonrpc.Response); !ok {
				t.Fatalf("child %d, round %d: %#v", i, round, m)
			}
		}
	}
	for _, s := range streams {
		if err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(9), Method: "exit"}); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range streams {
		ee := readExitError(t, s)
		if ee.ExitCode != 3 || !strings.HasSuffix(ee.StderrTail, "final words before exit 3") {
			t.Fatalf("child %d: exit %+v", i, ee)
		}
	}
}

// shell returns a Command running script with sh.
func shell(script string) *Command {
	return &Command{Command: "sh", Args: []string{"-c", script}, CloseTimeout: longTimeout}
}

// A child that closed its stderr is still reaped once it exits, and its
// exit is reported. On Linux the wait for it parks in the runtime's poller.
func TestStdioExitAfterStderrClosed(t *testing.T) {
	s := connect(t, shell(`exec 2>&-; read line; exit 5`))
	if runtime.GOOS == "linux" {
		g := parkedIn(t, "transport.(*process).wait", 1)[0]
		if g.state != "IO wait" {
			t.Fatalf("waiting for a running child in state %q, want the poller's IO wait:\n%s", g.state, g.stack)
		}
	}
	if err := s.Write(context.Background(), &jsonrpc.Notification{Method: "bye"}); err != nil {
		t.Fatal(err)
	}
	ee := readExitError(t, s)
	if ee.ExitCode != 5 || ee.Running || ee.StderrTail != "" {
		t.Fatalf("exit = %+v, want code 5 and no stderr", ee)
	}
}

// A child that exits while a process it started keeps stderr open (so the
// stderr drain goes on) still has its exit noticed and reported.
func TestStdioExitWhileGrandchildHoldsStderr(t *testing.T) {
	s := connect(t, shell(`sleep 1000 </dev/null >/dev/null &
printf '{"jsonrpc":"2.0","method":"spawned","params":{"pid":%d}}\n' $!
echo "last words" >&2
exit 7`))
	n := expectNotification(t, s, "spawned")
	var spawned struct{ PID int }
	if err := json.Unmarshal(n.Params, &spawned); err != nil || spawned.PID <= 0 {
		t.Fatalf("spawned: %s, %v", n.Params, err)
	}
	// The grandchild outlives the child, which took no signal, and it
	// never exits by itself: its pid stays its own until this kill.
	t.Cleanup(func() { syscall.Kill(spawned.PID, syscall.SIGKILL) })
	ee := readExitError(t, s)
	if ee.ExitCode != 7 || ee.Running {
		t.Fatalf("exit = %+v, want code 7", ee)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" {
		// Close took the last child from the stderr poller while its
		// pipe was still open: the poller's goroutine ends all the same.
		parkedIn(t, "transport.(*stderrPoller).serve", 0)
	}
}
