package transport

import (
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// quietPipe is an OS pipe in the poller, its read end read quietly.
func quietPipe(t *testing.T) (r, w *os.File, q *quietFile) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	if q = newQuietFile(r); q == nil {
		t.Fatal("no quiet reader for a pipe in the poller")
	}
	return r, w, q
}

// quietFile must read as os.File.Read does: the same bytes, the same
// waits, the same errors for a closed file, a passed deadline and the end.
func TestQuietFileReadsAsAFileDoes(t *testing.T) {
	r, w, q := quietPipe(t)
	buf := make([]byte, 8)

	// A read waits in the poller until input comes.
	got := make(chan string, 1)
	go func() {
		n, err := q.Read(buf)
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(buf[:n])
	}()
	if _, err := w.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "hello" {
		t.Fatalf("waiting read = %q, want hello", s)
	}

	// A deadline that passed is the file's own error.
	if err := r.SetReadDeadline(time.Unix(1, 0)); err != nil {
		t.Fatal(err)
	}
	if _, err := q.Read(buf); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past the deadline = %v, want os.ErrDeadlineExceeded", err)
	}
	if err := r.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}

	// What is there is read at once; the end of the pipe is io.EOF.
	if _, err := w.Write([]byte("bye")); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n, err := q.Read(buf); err != nil || string(buf[:n]) != "bye" {
		t.Fatalf("read = %q, %v", buf[:n], err)
	}
	if n, err := q.Read(buf); n != 0 || err != io.EOF {
		t.Fatalf("read at the end = %d, %v; want 0, io.EOF", n, err)
	}

	// A closed file says so as os.File does.
	r.Close()
	if _, err := q.Read(buf); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("read of a closed file = %v, want os.ErrClosed", err)
	}
}

// Closing the file ends a read waiting in the poller, with the file's
// error, as it ends os.File.Read.
func TestQuietFileCloseEndsAWaitingRead(t *testing.T) {
	r, _, q := quietPipe(t)
	done := make(chan error, 1)
	go func() {
		_, err := q.Read(make([]byte, 8))
		done <- err
	}()
	// The read is waiting or about to; either way Close must end it.
	r.Close()
	if err := <-done; !errors.Is(err, os.ErrClosed) {
		t.Fatalf("read ended by Close = %v, want os.ErrClosed", err)
	}
}

// A blocking file is never read quietly: such a read would hold its
// processor while it waits.
func TestQuietFileOnlyForNonBlockingFiles(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	_ = r.Fd() // Fd puts the file in blocking mode
	if q := newQuietFile(r); q != nil {
		t.Fatal("a quiet reader for a blocking pipe")
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if q := newQuietFile(f); q != nil {
		t.Fatal("a quiet reader for a regular file")
	}
}
