package transport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// running returns the running (not zombie) processes of group pgid.
func running(t *testing.T, pgid int) []int {
	t.Helper()
	pids, err := runningInGroup(pgid, -1)
	if err != nil {
		t.Fatal(err)
	}
	return pids
}

// killGroupAtCleanup SIGKILLs what runs of group pgid when the test ends,
// so that a failing test leaves no process behind either.
func killGroupAtCleanup(t *testing.T, pgid int) {
	t.Cleanup(func() {
		if groupRunning(pgid) {
			syscall.Kill(-pgid, syscall.SIGKILL)
		}
	})
}

func testExecutable(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// A server that exits at the end of its stdin but leaves a process of its
// group running (here a shell's background sleep) is not the end of it:
// Close sends the rest of the group SIGTERM.
func TestStdioCloseEndsWhatTheServerLeftRunning(t *testing.T) {
	c := forkingServer(testExecutable(t), childEcho)
	c.CloseTimeout, c.KillTimeout = longTimeout, longTimeout
	s := connect(t, c)
	pgid := s.proc.proc.Pid
	killGroupAtCleanup(t, pgid)
	call(t, s, 1, "echo", `{}`) // the server runs: the shell forked before it
	if s.proc.guard == nil {
		t.Fatal("no guard started")
	}
	if pids := running(t, pgid); len(pids) != 3 || !slices.Contains(pids, s.proc.guard.proc.Pid) {
		t.Fatalf("before Close, group %d runs %v, want the server, the sleep and the guard %d", pgid, pids, s.proc.guard.proc.Pid)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if sig := signalOf(t, s.proc); sig != 0 || s.proc.state.ExitCode() != 0 {
		t.Fatalf("server ended by signal %v, status %d; want exit 0 at the end of stdin", sig, s.proc.state.ExitCode())
	}
	if pids := running(t, pgid); len(pids) != 0 {
		t.Fatalf("after Close, group %d still runs %v", pgid, pids)
	}
}

// A client that is SIGKILLed runs no Close. The parent-death signal ends
// its server all the same, even one that ignores SIGTERM and the end of
// its stdin, and the group's guard ends what the server started: here a
// shell's background sleep, which the kernel reparents to init and which
// neither signal would reach.
func TestStdioGroupDiesWithItsSIGKILLedClient(t *testing.T) {
	client := exec.Command(testExecutable(t))
	client.Env = append(os.Environ(), childModeEnv+"="+childClient)
	client.Stderr = os.Stderr
	out, err := client.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := client.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		client.Process.Kill()
		client.Wait()
		t.Fatalf("client: %v", err)
	}
	pgid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("client printed %q, want the server's pid", line)
	}
	killGroupAtCleanup(t, pgid)
	// The server printed its readiness after the shell forked the sleep,
	// and the client started the guard before it read that: the group is
	// complete.
	members := running(t, pgid)
	if len(members) != 3 {
		t.Fatalf("group %d runs %v, want the server, the sleep and the guard", pgid, members)
	}
	if err := client.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	client.Wait()
	for _, pid := range members {
		if !waitForExit(t, pid, int(longTimeout/time.Millisecond)) {
			t.Fatalf("process %d of group %d outlived its SIGKILLed client", pid, pgid)
		}
	}
	if pids := running(t, pgid); len(pids) != 0 {
		t.Fatalf("after the client's death, group %d still runs %v", pgid, pids)
	}
}

// The parent-death signal fires when the OS thread that forked the child
// ends, and the runtime ends a thread whose goroutine exits while locked
// to it. A Connect from such a goroutine must not tie the server to it.
func TestStdioChildOutlivesTheThreadThatConnected(t *testing.T) {
	c := childCommand(t, childEcho)
	type connected struct {
		s   jsonrpc.Stream
		tid int
		err error
	}
	var r connected
	// The main thread is never ended, only parked: retry until the
	// goroutine ran on another one.
	for range 20 {
		done := make(chan connected, 1)
		go func() {
			runtime.LockOSThread() // not unlocked: the thread ends with the goroutine
			s, err := c.Connect(context.Background())
			done <- connected{s, syscall.Gettid(), err}
		}()
		r = <-done
		if r.err != nil {
			t.Fatal(r.err)
		}
		s := r.s
		t.Cleanup(func() { s.Close() })
		if r.tid != os.Getpid() {
			break
		}
	}
	if r.tid == os.Getpid() {
		t.Skip("the locked goroutine always ran on the main thread")
	}
	task := fmt.Sprintf("/proc/self/task/%d", r.tid)
	for deadline := time.Now().Add(longTimeout); ; runtime.Gosched() {
		if _, err := os.Stat(task); errors.Is(err, os.ErrNotExist) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("thread %d did not end", r.tid)
		}
	}
	// Had the child been forked from that thread, it got SIGKILL when
	// the thread ended, before its task left /proc.
	call(t, r.s, 1, "echo", `{"alive":true}`)
}

// A call written to a server that was SIGKILLed fails with the exit
// status and the stderr tail, not with "broken pipe".
func TestStdioWriteToADeadServerNamesItsExit(t *testing.T) {
	s := connect(t, childCommand(t, childKillSelf))
	if !waitForExit(t, s.proc.proc.Pid, int(longTimeout/time.Millisecond)) {
		t.Fatal("the server did not kill itself")
	}
	err := s.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/list"})
	var ee *ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("Write: %v, want an *ExitError", err)
	}
	if ee.Signal != syscall.SIGKILL.String() || !strings.Contains(ee.StderrTail, "about to die") {
		t.Fatalf("Write: %v, want the SIGKILL and the stderr tail", err)
	}
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Write: %v, want it to wrap EPIPE", err)
	}
}
