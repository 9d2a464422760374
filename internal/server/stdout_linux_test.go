package server

import (
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// A pipe inherited in blocking mode is opened again as a file of its own
// in the poller: its blocked write is cut short by a deadline, what it
// writes reaches the pipe, and the inherited descriptor stays blocking
// (it may be stderr too).
func TestCuttableOutputOfABlockingPipe(t *testing.T) {
	out, peer := stuckOuts[1].make(t) // "blocking pipe"
	defer peer.Close()
	defer out.Close()
	f, release := CuttableOutput(out.(*os.File))
	defer release()
	if f == out {
		t.Fatal("the blocking pipe was kept as it is")
	}
	if _, err := io.WriteString(f, "hello\n"); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 6)
	if _, err := io.ReadFull(peer, got); err != nil || string(got) != "hello\n" {
		t.Fatalf("the pipe's reader got %q, %v", got, err)
	}
	flags, err := fcntlFlags(out.(*os.File))
	if err != nil {
		t.Fatal(err)
	}
	if flags&syscall.O_NONBLOCK != 0 {
		t.Error("the inherited descriptor was made non-blocking")
	}

	written := make(chan error, 1)
	go func() {
		_, err := f.Write(make([]byte, 4<<20)) // more than the pipe holds
		written <- err
	}()
	if err := f.SetWriteDeadline(time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-written:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Errorf("the cut write: %v, want os.ErrDeadlineExceeded", err)
		}
	case <-time.After(hangBound):
		t.Fatalf("a write past its deadline still blocks after %v", hangBound)
	}
}

// What cannot be opened again as a pipe is returned as it is.
func TestCuttableOutputKeepsOtherFiles(t *testing.T) {
	r, w := osPipe(t) // in the poller already
	defer r.Close()
	defer w.Close()
	if f, _ := CuttableOutput(w); f != w {
		t.Error("a pipe in the poller was opened again")
	}
	reg, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	if f, _ := CuttableOutput(reg); f != reg {
		t.Error("a regular file was opened again")
	}
}

func fcntlFlags(f *os.File) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var flags uintptr
	var errno syscall.Errno
	if err := rc.Control(func(fd uintptr) {
		flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	}); err != nil {
		return 0, err
	}
	if errno != 0 {
		return 0, errno
	}
	return int(flags), nil
}
