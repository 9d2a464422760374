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

func TestReadWriteReadable(t *testing.T) { bothPaths(t, testReadWriteReadable) }

func testReadWriteReadable(t *testing.T) {
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
func TestWriteNeverWaits(t *testing.T) { bothPaths(t, testWriteNeverWaits) }

func testWriteNeverWaits(t *testing.T) {
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

func TestBadDescriptor(t *testing.T) { bothPaths(t, testBadDescriptor) }

func testBadDescriptor(t *testing.T) {
	if _, err := Read(-1, make([]byte, 1)); !errors.Is(err, syscall.EBADF) {
		t.Errorf("Read(-1) = %v, want EBADF", err)
	}
	if _, err := Write(-1, []byte("x")); !errors.Is(err, syscall.EBADF) {
		t.Errorf("Write(-1) = %v, want EBADF", err)
	}
}

// A descriptor put back in blocking mode (as os.File.Fd does) never holds
// its processor while a read waits: RWF_NOWAIT makes the read give EAGAIN,
// and without it the read goes through the scheduler. With one processor,
// a read held in the kernel would keep the writing goroutine from ever
// running, and the test would hang.
func TestBlockingDescriptorNeverHoldsTheProcessor(t *testing.T) {
	bothPaths(t, func(t *testing.T) {
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
		for {
			n, err := Read(rfd, buf) // the goroutine above writes
			if errors.Is(err, syscall.EAGAIN) {
				runtime.Gosched()
				continue
			}
			if err != nil || string(buf[:n]) != "late" {
				t.Fatalf("Read = %q, %v", buf[:n], err)
			}
			break
		}
		if err := <-wrote; err != nil {
			t.Fatal(err)
		}
	})
}

// Where the kernel takes RWF_NOWAIT for pipes, a read or a write that
// would wait refuses with EAGAIN even in blocking mode, and that without
// asking the mode first.
func TestNowaitRefusesToWait(t *testing.T) {
	_, _, rfd, wfd := nonBlockingPipe(t)
	if err := syscall.SetNonblock(rfd, false); err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetNonblock(wfd, false); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 1<<16)
	_, err, ok := nowaitIO(sysPreadv2, rfd, buf)
	if !ok {
		t.Skip("this kernel does not take RWF_NOWAIT for pipes")
	}
	if !errors.Is(err, syscall.EAGAIN) {
		t.Fatalf("read of an empty blocking pipe: %v, want EAGAIN", err)
	}
	for range 64 {
		_, err, ok := nowaitIO(sysPwritev2, wfd, buf)
		if !ok {
			t.Fatal("pwritev2 refused RWF_NOWAIT where preadv2 took it")
		}
		if errors.Is(err, syscall.EAGAIN) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("filled a blocking pipe without EAGAIN")
}

// bothPaths runs test with RWF_NOWAIT as this kernel has it, then as on
// a kernel without it (the mode asked at every call).
func bothPaths(t *testing.T, test func(t *testing.T)) {
	t.Run("as-is", test)
	t.Run("mode-checked", func(t *testing.T) {
		old := nowaitOff.Load()
		nowaitOff.Store(true)
		defer nowaitOff.Store(old)
		test(t)
	})
}
