package jsonl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
)

// lockedBuffer records each Write call separately.
type lockedBuffer struct {
	mu     sync.Mutex
	writes []string
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes = append(b.writes, string(p))
	return len(p), nil
}

// Concurrent writers never interleave: every Write holds whole lines, and
// every line arrives exactly once.
func TestWriterWholeLinesUnderConcurrency(t *testing.T) {
	var buf lockedBuffer
	w := NewWriter(&buf)
	defer w.Close()
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				frame := fmt.Appendf(nil, `{"g":%d,"i":%d,"pad":%q}`, g, i, strings.Repeat("p", i))
				if err := w.WriteFrame(context.Background(), frame); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, write := range buf.writes {
		if !strings.HasSuffix(write, "\n") {
			t.Fatalf("write %q does not end a line", write)
		}
		for _, line := range strings.SplitAfter(write, "\n") {
			if line == "" {
				continue
			}
			if seen[line] {
				t.Fatalf("line %q written twice", line)
			}
			seen[line] = true
		}
	}
	if len(seen) != writers*each {
		t.Fatalf("%d distinct lines, want %d", len(seen), writers*each)
	}
}

// gatedWriter records each Write and blocks the first until released.
type gatedWriter struct {
	lockedBuffer
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (g *gatedWriter) Write(p []byte) (int, error) {
	first := false
	g.once.Do(func() { first = true })
	if first {
		close(g.entered)
		<-g.release
	}
	return g.lockedBuffer.Write(p)
}

// Lines queued while a Write is in progress go out together in the next
// Write, in the order they were queued.
func TestWriterBatchesLinesQueuedDuringAWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gatedWriter{entered: make(chan struct{}), release: make(chan struct{})}
		w := NewWriter(g)
		defer w.Close()
		errs := make(chan error, 3)
		go func() { errs <- w.WriteFrame(context.Background(), []byte(`{"n":1}`)) }()
		<-g.entered
		go func() { errs <- w.WriteFrame(context.Background(), []byte(`{"n":2}`)) }()
		synctest.Wait()
		go func() { errs <- w.WriteFrame(context.Background(), []byte(`{"n":3}`)) }()
		synctest.Wait()
		close(g.release)
		for range 3 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		want := []string{`{"n":1}` + "\n", `{"n":2}` + "\n" + `{"n":3}` + "\n"}
		if !slices.Equal(g.writes, want) {
			t.Fatalf("writes %q, want %q", g.writes, want)
		}
	})
}

func TestWriterRefusesNewlines(t *testing.T) {
	var buf lockedBuffer
	w := NewWriter(&buf)
	defer w.Close()
	err := w.WriteFrame(context.Background(), []byte("{\n}"))
	if err == nil || !strings.Contains(err.Error(), "byte 1") {
		t.Fatalf("err = %v, want a newline error at byte 1", err)
	}
	if len(buf.writes) != 0 {
		t.Fatalf("wrote %q", buf.writes)
	}
	if err := w.WriteFrame(context.Background(), []byte("{}")); err != nil {
		t.Fatalf("writer unusable after a refused frame: %v", err)
	}
}

func TestWriterHonoursContextWhenBlocked(t *testing.T) {
	pr, pw := io.Pipe() // nobody reads yet: every Write blocks
	w := NewWriter(pw)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.WriteFrame(ctx, []byte(`{"a":1}`)) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if err := w.Err(); err != nil {
		t.Fatalf("a write that gave up failed the writer: %v", err)
	}
	w.Close()
	pw.Close()
	pr.Close()
}

// A write abandoned while the line is half written must not cut the line
// short or let the next line interleave: the line completes in the
// background and the writer stays usable.
func TestWriterAbandonedMidWriteCompletesWhole(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw)
	defer pr.Close()
	defer pw.Close()
	defer w.Close()

	// The reader takes one byte, proving the writer goroutine is inside
	// Write, then stops reading.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- w.WriteFrame(ctx, []byte(`{"first":true}`)) }()
	one := make([]byte, 1)
	if _, err := io.ReadFull(pr, one); err != nil {
		t.Fatal(err)
	}
	// A second writer queued behind it gives up with its ctx.
	ctx2, cancel2 := context.WithCancel(context.Background())
	done2 := make(chan error)
	go func() { done2 <- w.WriteFrame(ctx2, []byte(`{"second":true}`)) }()
	cancel2()
	if err := <-done2; !errors.Is(err, context.Canceled) {
		t.Fatalf("queued writer: %v, want context.Canceled", err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("blocked writer: %v, want context.Canceled", err)
	}

	// A later frame waits for the abandoned line, then follows it.
	done3 := make(chan error)
	go func() { done3 <- w.WriteFrame(context.Background(), []byte(`{"third":true}`)) }()
	want := `{"first":true}` + "\n" + `{"third":true}` + "\n"
	rest := make([]byte, len(want)-1)
	if _, err := io.ReadFull(pr, rest); err != nil {
		t.Fatal(err)
	}
	if got := string(one) + string(rest); got != want {
		t.Fatalf("peer read %q, want %q", got, want)
	}
	if err := <-done3; err != nil {
		t.Fatalf("later write: %v", err)
	}
	if err := w.Err(); err != nil {
		t.Fatalf("Err() = %v", err)
	}
}

func TestWriterCloseUnblocksAndRefuses(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw)
	done := make(chan error)
	go func() { done <- w.WriteFrame(context.Background(), []byte(`{"x":1}`)) }()
	one := make([]byte, 1)
	if _, err := io.ReadFull(pr, one); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := <-done; !errors.Is(err, ErrWriterClosed) {
		t.Fatalf("pending write: %v, want ErrWriterClosed", err)
	}
	if err := w.WriteFrame(context.Background(), []byte("{}")); !errors.Is(err, ErrWriterClosed) {
		t.Fatalf("write after Close: %v", err)
	}
	w.Close() // idempotent
	pw.Close()
	pr.Close()
}

func TestWriterWriteErrorIsSticky(t *testing.T) {
	pr, pw := io.Pipe()
	pr.Close()
	w := NewWriter(pw)
	defer w.Close()
	err := w.WriteFrame(context.Background(), []byte("{}"))
	if !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("err = %v, want io.ErrClosedPipe", err)
	}
	if err2 := w.WriteFrame(context.Background(), []byte("{}")); !errors.Is(err2, io.ErrClosedPipe) {
		t.Fatalf("second write: %v", err2)
	}
}

func TestWriterReaderRoundTrip(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw)
	big := bytes.Repeat([]byte("q"), 5<<20)
	frames := [][]byte{[]byte(`{"a":1}`), big, []byte(`{"z":26}`)}
	go func() {
		defer pw.Close()
		defer w.Close()
		for _, f := range frames {
			if err := w.WriteFrame(context.Background(), f); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	r := NewReader(pr)
	for i, want := range frames {
		got, err := r.ReadFrame()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("frame %d: %d bytes, %v", i, len(got), err)
		}
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
}
