package quietsys

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// nonBlockingPipe is an OS pipe whose two ends are in non-blocking mode,
// as os.Pipe makes them, and their descriptors.
func nonBlockingPipe(t *testing.T) (r, w *os.File, rfd, wfd int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	for _, f := range []*os.File{r, w} {
		rc, err := f.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var fd int
		if err := rc.Control(func(u uintptr) { fd = int(u) }); err != nil {
			t.Fatal(err)
		}
		if err := syscall.SetNonblock(fd, true); err != nil {
			t.Fatal(err)
		}
		if f == r {
			rfd = fd
		} else {
			wfd = fd
		}
	}
	return r, w, rfd, wfd
}

func TestReadWriteReadable(t *testing.T) {
	_, w, rfd, wfd := nonBlockingPipe(t)
	buf := make([]byte, 16)
	if Readable(rfd) {
		t.Fatal("an empty pipe is readable")
	}
	if n, err := Read(rfd, buf); n != 0 || !errors.Is(err, syscall.EAGAIN) {
		t.Fatalf("Read of an empty pipe = %d, %v; want 0, EAGAIN", n, err)
	}
	if n, err := Write(wfd, []byte("hello")); n != 5 || err != nil {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if !Readable(rfd) {
		t.Fatal("a pipe holding input is not readable")
	}
	if n, err := Read(rfd, buf); n != 5 || err != nil || string(buf[:n]) != "hello" {
		t.Fatalf("Read = %d %q, %v", n, buf[:n], err)
	}
	if n, err := Read(rfd, nil); n != 0 || err != nil && !errors.Is(err, syscall.EAGAIN) {
		t.Fatalf("Read into nothing = %d, %v", n, err)
	}
	w.Close()
	if !Readable(rfd) {
		t.Fatal("a pipe whose writer is gone is not readable (its end)")
	}
	if n, err := Read(rfd, buf); n != 0 || err != nil {
		t.Fatalf("Read at the end = %d, %v; want 0, nil", n, err)
	}
}

// A full pipe takes what fits and then refuses with EAGAIN: Write never
// waits, which is what makes it safe to make without the scheduler.
func TestWriteNeverWaits(t *testing.T) {
	_, _, _, wfd := nonBlockingPipe(t)
	chunk := make([]byte, 1<<16)
	total := 0
	for range 64 {
		n, err := Write(wfd, chunk)
		total += n
		if errors.Is(err, syscall.EAGAIN) {
			if total == 0 {
				t.Fatal("nothing fitted in an empty pipe")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Fatalf("wrote %d bytes into a pipe without EAGAIN", total)
}

func TestBadDescriptor(t *testing.T) {
	if _, err := Read(-1, make([]byte, 1)); !errors.Is(err, syscall.EBADF) {
		t.Errorf("Read(-1) = %v, want EBADF", err)
	}
	if _, err := Write(-1, []byte("x")); !errors.Is(err, syscall.EBADF) {
		t.Errorf("Write(-1) = %v, want EBADF", err)
	}
}
