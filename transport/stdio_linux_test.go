package transport

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// waitForExit blocks until process pid exits (becomes a zombie or is
// reaped), using a pidfd, for at most timeoutMS. It reports whether it
// exited, or skips the test where pidfds are not available.
func waitForExit(t *testing.T, pid int, timeoutMS int) bool {
	t.Helper()
	pidfd, err := pidfdOpen(pid)
	if err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return true
		}
		t.Skipf("pidfd_open: %v", err)
	}
	defer syscall.Close(pidfd)
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(ep)
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(pidfd)}
	if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, pidfd, &ev); err != nil {
		t.Fatal(err)
	}
	events := make([]syscall.EpollEvent, 1)
	for {
		n, err := syscall.EpollWait(ep, events, timeoutMS)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
}

func TestStdioCloseSignalsTheWholeProcessGroup(t *testing.T) {
	c := childCommand(t, childSpawn) // ignores SIGTERM; its child does not
	c.CloseTimeout, c.KillTimeout = shortTimeout, shortTimeout
	s := connect(t, c)
	n := expectNotification(t, s, "spawned")
	var spawned struct{ PID int }
	if err := json.Unmarshal(n.Params, &spawned); err != nil || spawned.PID <= 0 {
		t.Fatalf("spawned: %s, %v", n.Params, err)
	}
	pidfdProbe := waitForExit(t, spawned.PID, 0)
	if pidfdProbe {
		t.Fatal("grandchild exited before Close")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if sig := signalOf(t, s.proc); sig != syscall.SIGKILL {
		t.Fatalf("child ended by %v, want SIGKILL", sig)
	}
	if !waitForExit(t, spawned.PID, 60_000) {
		syscall.Kill(spawned.PID, syscall.SIGKILL)
		t.Fatal("the grandchild survived Close: signals did not reach the process group")
	}
}

// childRunning tells a running child from an exited one, and answers no
// for a process that is not this process's child, so that awaitExit never
// waits on a pidfd that names someone else.
func TestChildRunning(t *testing.T) {
	self, err := pidfdOpen(os.Getpid())
	if err != nil {
		t.Skipf("pidfd_open: %v", err)
	}
	defer syscall.Close(self)
	if childRunning(self) {
		t.Fatal("this process counts as a running child of its own")
	}
	cmd := exec.Command("sh", "-c", "cat >/dev/null") // exits 0 at the end of stdin
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fd, err := pidfdOpen(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if !childRunning(fd) {
		t.Fatal("a child waiting for its stdin is not running")
	}
	stdin.Close()
	awaitExit(cmd.Process)
	if childRunning(fd) {
		t.Fatal("the child still runs after awaitExit")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}
