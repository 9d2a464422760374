package transport

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startGroup starts a long sleep as the leader of a group of its own and
// returns its pid (the group's id); it is killed when the test ends.
func startGroup(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("sleep", "1000")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	return cmd.Process.Pid
}

// exitedWithin reports whether pid exits within the long timeout.
func exitedWithin(t *testing.T, pid int) bool {
	t.Helper()
	return waitForExit(t, pid, int(longTimeout/time.Millisecond))
}

// endGuard does to g what mcpwire's death does: its pipe closes. It
// returns once the guard has acted and exited.
func endGuard(t *testing.T, g *groupGuard) {
	t.Helper()
	g.pipe.Close()
	if _, err := g.proc.Wait(); err != nil {
		t.Fatal(err)
	}
}

// The guard kills every group it was told of and not told to forget; a
// forgotten group, whose id may by then belong to someone else, it
// leaves alone, and a group held twice stays known until both forgot it.
func TestGuardKillsOnlyTheGroupsItKnows(t *testing.T) {
	var g groupGuard
	kept, forgotten, twice := startGroup(t), startGroup(t), startGroup(t)
	for _, pgid := range []int{kept, forgotten, twice, twice} {
		if !g.watch(pgid) {
			t.Fatal("no guard started")
		}
	}
	g.forget(forgotten)
	g.forget(twice)
	endGuard(t, &g)
	for _, pgid := range []int{kept, twice} {
		if !exitedWithin(t, pgid) {
			t.Fatalf("group %d outlived the guard's end", pgid)
		}
	}
	// The guard's kill signalled the groups in the order it was told of
	// them, the forgotten one before the last; by now a SIGKILL sent to
	// it is pending or has made it a zombie.
	if !aliveAndUnsignalled(t, forgotten) {
		t.Fatalf("the forgotten group %d was killed", forgotten)
	}
}

// aliveAndUnsignalled reports whether pid runs (is no zombie) with no
// SIGKILL pending.
func aliveAndUnsignalled(t *testing.T, pid int) bool {
	t.Helper()
	if _, state, ok := procGroupAndState(strconv.Itoa(pid)); !ok || state == 'Z' || state == 'X' {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		name, mask, ok := strings.Cut(line, ":")
		if name != "SigPnd" && name != "ShdPnd" || !ok {
			continue
		}
		bits, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if bits&(1<<(syscall.SIGKILL-1)) != 0 {
			return false
		}
	}
	return true
}

// A guard that died (someone killed it) is replaced at the next watch,
// and the new one is told of every group still known.
func TestGuardIsReplacedAfterItDied(t *testing.T) {
	var g groupGuard
	first, second := startGroup(t), startGroup(t)
	if !g.watch(first) {
		t.Fatal("no guard started")
	}
	dead := g.proc
	if err := dead.Kill(); err != nil {
		t.Fatal(err)
	}
	if !exitedWithin(t, dead.Pid) {
		t.Fatal("the guard outlived SIGKILL")
	}
	if !g.watch(second) {
		t.Fatal("no guard restarted")
	}
	if g.proc == dead {
		t.Fatal("the dead guard was kept")
	}
	endGuard(t, &g)
	for _, pgid := range []int{first, second} {
		if !exitedWithin(t, pgid) {
			t.Fatalf("group %d outlived the new guard's end", pgid)
		}
	}
}

// A guard that stopped reading (SIGSTOP) fills its pipe; a write that
// would wait for room must not hold connects and Closes: the guard is
// replaced instead, and the new one knows the groups.
func TestGuardThatStoppedReadingIsReplaced(t *testing.T) {
	var g groupGuard
	pgid := startGroup(t)
	if !g.watch(pgid) {
		t.Fatal("no guard started")
	}
	stopped := g.proc
	t.Cleanup(func() { stopped.Kill() })
	if err := stopped.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// A pipe holds 64 KiB by default; the bound is far beyond that.
	for i := 0; g.proc == stopped; i++ {
		if i == 1<<20 {
			t.Fatal("the pipe never filled")
		}
		g.watch(pgid)
		g.forget(pgid)
	}
	// A forget that found the pipe full leaves no guard until the next
	// watch starts one.
	if g.proc == nil && !g.watch(pgid) {
		t.Fatal("no guard after the stopped one")
	}
	if guardPidOf(&g) == 0 || g.groups[pgid] == 0 {
		t.Fatalf("after the stopped guard: guard %d, group %d known %d times", guardPidOf(&g), pgid, g.groups[pgid])
	}
	endGuard(t, &g)
	if !exitedWithin(t, pgid) {
		t.Fatalf("group %d outlived the new guard's end", pgid)
	}
}

func guardPidOf(g *groupGuard) int {
	if g.proc == nil {
		return 0
	}
	return g.proc.Pid
}

// Where the guard can run, a child is forked from the caller's thread
// with no parent-death signal; where it cannot, from the starter's locked
// thread with one, and that thread is held until the child was reaped.
func TestStartChildUsesTheStarterThreadOnlyWithoutAGuard(t *testing.T) {
	for _, guarded := range []bool{true, false} {
		cmd := exec.Command("sleep", "1000")
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		release, err := startChild(cmd, guarded)
		if err != nil {
			t.Fatal(err)
		}
		starter.mu.Lock()
		live := starter.live
		starter.mu.Unlock()
		wantSignal, wantLive := syscall.Signal(0), 0
		if !guarded {
			wantSignal, wantLive = syscall.SIGKILL, 1
		}
		if cmd.SysProcAttr.Pdeathsig != wantSignal || live != wantLive {
			t.Errorf("guarded %v: parent-death signal %v, starter users %d; want %v, %d",
				guarded, cmd.SysProcAttr.Pdeathsig, live, wantSignal, wantLive)
		}
		cmd.Process.Kill()
		cmd.Wait()
		release()
		starter.mu.Lock()
		live = starter.live
		starter.mu.Unlock()
		if live != 0 {
			t.Errorf("guarded %v: %d starter users after the child was reaped", guarded, live)
		}
	}
}

// available says no, without trying to start anything, when the shell is
// missing or not an executable file; and yes once a guard runs.
func TestGuardAvailableChecksTheShell(t *testing.T) {
	dir := t.TempDir()
	plain := dir + "/plain"
	if err := os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, shell := range []string{dir + "/missing", dir, plain} {
		g := &groupGuard{shell: shell}
		ok := g.available()
		if ok || !g.failed {
			t.Errorf("shell %s: available %v, failed %v; want false, true", shell, ok, g.failed)
		}
	}
	g := &groupGuard{}
	if !g.available() || g.proc != nil {
		t.Fatalf("/bin/sh: available %v with guard %v; want true and none started yet", g.available(), g.proc)
	}
	if !g.watch(startGroup(t)) || !g.available() {
		t.Fatal("a running guard is not available")
	}
	endGuard(t, g)
}
