package transport

import (
	"encoding/json"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func isNonblocking(t *testing.T, fd int) bool {
	t.Helper()
	fl, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFL, 0)
	if errno != 0 {
		t.Fatalf("fcntl(%d): %v", fd, errno)
	}
	return fl&syscall.O_NONBLOCK != 0
}

func TestChildPipeEnds(t *testing.T) {
	for _, childReads := range []bool{true, false} {
		ours, theirs, err := childPipe(childReads)
		if err != nil {
			t.Fatal(err)
		}
		ourFd, ok := sysfd(ours)
		if !ok {
			t.Fatal("our end has no descriptor")
		}
		if !isNonblocking(t, ourFd) {
			t.Errorf("childReads=%v: our end is blocking; the poller needs it non-blocking", childReads)
		}
		// Fd leaves a descriptor outside the poller as it is.
		if isNonblocking(t, int(theirs.Fd())) {
			t.Errorf("childReads=%v: the child's end is non-blocking", childReads)
		}
		w, r := theirs, ours
		if childReads {
			w, r = ours, theirs
		}
		if _, err := w.Write([]byte("x")); err != nil {
			t.Errorf("childReads=%v: write: %v", childReads, err)
		}
		b := make([]byte, 1)
		if n, err := r.Read(b); n != 1 || b[0] != 'x' {
			t.Errorf("childReads=%v: read %q, %v", childReads, b[:n], err)
		}
		closeAll(ours, theirs)
	}
}

// A stdio server gets blocking standard streams, as a child of a shell
// would: a server that does not expect EAGAIN must not meet it.
func TestStdioChildStreamsBlocking(t *testing.T) {
	script := `read x; printf '{"jsonrpc":"2.0","method":"flags","params":["%s","%s","%s"]}\n' ` +
		`"$(grep flags /proc/$$/fdinfo/0 | tr '\t' ' ')" "$(grep flags /proc/$$/fdinfo/1 | tr '\t' ' ')" "$(grep flags /proc/$$/fdinfo/2 | tr '\t' ' ')"`
	s, err := (&Command{Command: "/bin/sh", Args: []string{"-c", script}}).Connect(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Write(t.Context(), &jsonrpc.Notification{Method: "go"}); err != nil {
		t.Fatal(err)
	}
	m, err := s.Read(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	n, ok := m.(*jsonrpc.Notification)
	if !ok || n.Method != "flags" {
		t.Fatalf("got %#v, want the flags notification", m)
	}
	var lines []string
	if err := json.Unmarshal(n.Params, &lines); err != nil || len(lines) != 3 {
		t.Fatalf("params %s: %v", n.Params, err)
	}
	for fd, l := range lines {
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("fd %d: fdinfo line %q", fd, l)
		}
		flags, err := strconv.ParseUint(f[1], 8, 64)
		if err != nil {
			t.Fatalf("fd %d: flags %q: %v", fd, f[1], err)
		}
		if flags&syscall.O_NONBLOCK != 0 {
			t.Errorf("the child's fd %d is non-blocking (flags %s)", fd, f[1])
		}
	}
}
