package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// `mcpwire serve --stdio` answers its host through a file of its own on
// the stdout pipe, in non-blocking mode, so that replies are written
// without the scheduler's blocking-call path (internal/quietsys), while
// the descriptor it inherited (which stderr may share, 2>&1) stays
// blocking.
func TestServeStdioWritesThroughAFileOfItsOwn(t *testing.T) {
	h := startServeStdio(t)
	defer func() { _ = h.stdin.Close(); _ = h.cmd.Wait() }()

	proc := "/proc/" + strconv.Itoa(h.cmd.Process.Pid)
	pipe, err := os.Readlink(proc + "/fd/1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(pipe, "pipe:") {
		t.Fatalf("stdout is %s, not a pipe", pipe)
	}
	if nonBlocking(t, proc, "1") {
		t.Error("the inherited stdout was made non-blocking")
	}
	fds, err := os.ReadDir(proc + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	var own []string
	for _, fd := range fds {
		if fd.Name() == "1" || fd.Name() == "2" {
			continue
		}
		if target, err := os.Readlink(filepath.Join(proc, "fd", fd.Name())); err == nil && target == pipe && writeOnly(t, proc, fd.Name()) {
			own = append(own, fd.Name())
		}
	}
	if len(own) != 1 {
		t.Fatalf("descriptors of its own on the stdout pipe: %v, want one", own)
	}
	if !nonBlocking(t, proc, own[0]) {
		t.Errorf("its own stdout file (fd %s) is blocking", own[0])
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

func writeOnly(t *testing.T, proc, fd string) bool {
	return fdFlags(t, proc, fd)&syscall.O_ACCMODE == syscall.O_WRONLY
}
