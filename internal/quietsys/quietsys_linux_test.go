package quietsys

import (
	"errors"
	"os"
	"runtime"
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

// A descriptor put back in blocking mode (as os.File.Fd does) is read
// and written through the scheduler: a read that waits must not hold its
// processor. With one processor, a read held that way would keep the
// writing goroutine from ever running.
func TestBlockingDescriptorGoesThroughTheScheduler(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	_, _, rfd, wfd := nonBlockingPipe(t)
	if err := syscall.SetNonblock(rfd, false); err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetNonblock(wfd, false); err != nil {
		t.Fatal(err)
	}
	if nonBlockingFD(rfd) || nonBlockingFD(-1) {
		t.Fatal("a blocking descriptor, or a bad one, taken for non-blocking")
	}
	wrote := make(chan error, 1)
	go func() {
		_, err := Write(wfd, []byte("late"))
		wrote <- err
	}()
	buf := make([]byte, 8)
	n, err := Read(rfd, buf) // waits for the goroutine above
	if err != nil || string(buf[:n]) != "late" {
		t.Fatalf("Read = %q, %v", buf[:n], err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
}
