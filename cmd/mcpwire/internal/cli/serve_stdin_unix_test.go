//go:build unix

package cli

import (
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestPollableStdinPutsABlockingPipeInThePoller: a host starts serve
// --stdio with a blocking pipe as stdin, which the runtime cannot give
// read deadlines; pollableStdin must hand the gateway one it can (so its
// stream is read in turns), and leave anything but stdin alone.
func TestPollableStdinPutsABlockingPipeInThePoller(t *testing.T) {
	var p [2]int
	if err := syscall.Pipe(p[:]); err != nil { // blocking, as a child inherits it
		t.Fatal(err)
	}
	r, w := os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1")
	defer w.Close()
	if r.SetReadDeadline(time.Time{}) == nil {
		t.Fatal("the blocking pipe already takes deadlines; the test proves nothing")
	}
	if got := pollableStdin(r); got != r {
		t.Fatalf("a file that is not os.Stdin was replaced: %v", got)
	}
	saved := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = saved }()
	got, ok := pollableStdin(r).(*os.File)
	if !ok || got == r {
		t.Fatalf("stdin on a blocking pipe was not replaced: %T", got)
	}
	// Where got shares r's descriptor (unix but Linux), got closes it,
	// and r stays reachable so that its finalizer never closes the number
	// again (as os.Stdin, a global, never does).
	pinnedFiles = append(pinnedFiles, r)
	defer got.Close()
	if runtime.GOOS == "linux" {
		// A file of its own: the inherited open file keeps its mode,
		// for whoever else shares it.
		rc, err := got.SyscallConn() // not Fd, which would make it blocking
		if err != nil {
			t.Fatal(err)
		}
		gotFd := -1
		if err := rc.Control(func(fd uintptr) { gotFd = int(fd) }); err != nil {
			t.Fatal(err)
		}
		if gotFd == p[0] {
			t.Fatal("on Linux the replacement shares stdin's descriptor")
		}
		flags, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(p[0]), syscall.F_GETFL, 0)
		if errno != 0 {
			t.Fatal(errno)
		}
		if flags&syscall.O_NONBLOCK != 0 {
			t.Error("stdin's own open file was put in non-blocking mode")
		}
	}
	if err := got.SetReadDeadline(time.Now().Add(time.Hour)); err != nil {
		t.Fatalf("the replacement takes no read deadline: %v", err)
	}
	if _, err := w.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1)
	if n, err := got.Read(buf); n != 1 || buf[0] != 'x' {
		t.Fatalf("reading the replacement: %d %v", n, err)
	}
}

var pinnedFiles []*os.File

func TestPollableStdinLeavesARegularFile(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	saved := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = saved }()
	if got := pollableStdin(f); got != f {
		t.Fatalf("a regular file as stdin was replaced: %v", got)
	}
}
