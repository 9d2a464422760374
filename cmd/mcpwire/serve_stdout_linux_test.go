package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// `mcpwire serve --stdio` reads its host's stdin and answers on its
// stdout through files of its own on the two pipes, in non-blocking mode,
// so that both are read and written in the poller without the
// scheduler's blocking-call path (internal/quietsys), while the
// descriptors it inherited (which stderr, or a sibling process, may
// share) keep their blocking mode.
func TestServeStdioReadsAndWritesThroughFilesOfItsOwn(t *testing.T) {
	h := startServeStdio(t)
	defer func() { _ = h.stdin.Close(); _ = h.cmd.Wait() }()

	proc := "/proc/" + strconv.Itoa(h.cmd.Process.Pid)
	for _, std := range []struct {
		fd     string
		access int
	}{{"0", syscall.O_RDONLY}, {"1", syscall.O_WRONLY}} {
		pipe, err := os.Readlink(proc + "/fd/" + std.fd)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(pipe, "pipe:") {
			t.Fatalf("fd %s is %s, not a pipe", std.fd, pipe)
		}
		if nonBlocking(t, proc, std.fd) {
			t.Errorf("the inherited fd %s was made non-blocking", std.fd)
		}
		fds, err := os.ReadDir(proc + "/fd")
		if err != nil {
			t.Fatal(err)
		}
		var own []string
		for _, fd := range fds {
			if n := fd.Name(); n == "0" || n == "1" || n == "2" {
				continue
			}
			if target, err := os.Readlink(filepath.Join(proc, "fd", fd.Name())); err == nil && target == pipe &&
				int(fdFlags(t, proc, fd.Name())&syscall.O_ACCMODE) == std.access {
				own = append(own, fd.Name())
			}
		}
		if len(own) != 1 {
			t.Fatalf("descriptors of its own on fd %s's pipe: %v, want one", std.fd, own)
		}
		if !nonBlocking(t, proc, own[0]) {
			t.Errorf("its own file on fd %s's pipe (fd %s) is blocking", std.fd, own[0])
		}
	}
}

// fdFlags reads the open flags of a process's descriptor from fdinfo.
func fdFlags(t *testing.T, proc, fd string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(proc, "fdinfo", fd))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "flags:"); ok {
			flags, err := strconv.ParseInt(strings.TrimSpace(v), 8, 64)
			if err != nil {
				t.Fatal(err)
			}
			return flags
		}
	}
	t.Fatalf("no flags in %s/fdinfo/%s", proc, fd)
	return 0
}

func nonBlocking(t *testing.T, proc, fd string) bool {
	return fdFlags(t, proc, fd)&syscall.O_NONBLOCK != 0
}
