//go:build linux

package jsonl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

func osPipe(t *testing.T) (*os.File, *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// On an OS pipe a lone writer writes on its own goroutine; many writers
// and lines larger than the pipe still arrive whole and in one piece each.
func TestWriterDirectOnOSPipe(t *testing.T) {
	r, pw := osPipe(t)
	w := NewWriter(pw)
	defer w.Close()
	if w.direct == nil {
		t.Fatal("no direct path for an OS pipe")
	}
	const writers, each = 8, 100
	big := strings.Repeat("b", 300<<10) // larger than a pipe's buffer
	lines := make(chan string, writers*each+1)
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				frame := fmt.Sprintf(`{"g":%d,"i":%d}`, g, i)
				if i == 50 && g == 0 {
					frame = `{"big":"` + big + `"}`
				}
				if err := w.WriteFrame(context.Background(), []byte(frame)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	pw.Close()
	seen := map[string]bool{}
	for l := range lines {
		if seen[l] {
			t.Fatalf("line %.40q twice", l)
		}
		if !strings.HasPrefix(l, "{") || !strings.HasSuffix(l, "}") {
			t.Fatalf("broken line %.40q", l)
		}
		seen[l] = true
	}
	if len(seen) != writers*each {
		t.Fatalf("%d lines, want %d", len(seen), writers*each)
	}
}

// A direct write that only partly fits is finished by the writer
// goroutine even when its caller gives up: the peer gets the whole line,
// then the next.
func TestWriterDirectPartialLineCompletes(t *testing.T) {
	r, pw := osPipe(t)
	w := NewWriter(pw)
	defer w.Close()
	big := `{"big":"` + strings.Repeat("b", 300<<10) + `"}`
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- w.WriteFrame(ctx, []byte(big)) }()
	// Nobody reads yet, so the line is stuck part-way; give up on it.
	br := bufio.NewReaderSize(r, 1<<20)
	if _, err := br.Peek(1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) && err != nil {
		t.Fatalf("WriteFrame = %v", err)
	}
	next := make(chan error, 1)
	go func() { next <- w.WriteFrame(context.Background(), []byte(`{"next":1}`)) }()
	first, err := br.ReadString('\n')
	if err != nil || first != big+"\n" {
		t.Fatalf("first line of %d bytes (%v), want the whole %d", len(first), err, len(big)+1)
	}
	second, err := br.ReadString('\n')
	if err != nil || second != `{"next":1}`+"\n" {
		t.Fatalf("second line %q, %v", second, err)
	}
	if err := <-next; err != nil {
		t.Fatal(err)
	}
}

// queuedLines puts n lines in w's queue as WriteFrame would while another
// write is in progress (w is marked busy, as that write holds it).
func queuedLines(w *Writer, n int) []*line {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.busy = true
	var ls []*line
	for i := range n {
		l := w.getLine()
		l.buf = fmt.Appendf(l.buf, `{"i":%d}`+"\n", i)
		ls = append(ls, l)
	}
	w.queue = append(w.queue, ls...)
	return ls
}

// Lines queued during a direct write are written by that write's
// goroutine right after it, joined, and their waiters told.
func TestWriterCombinesQueuedLines(t *testing.T) {
	r, pw := osPipe(t)
	w := NewWriter(pw)
	defer w.Close()
	ls := queuedLines(w, 3)
	w.combine()
	if len(w.queue) != 0 {
		t.Fatalf("%d lines left queued", len(w.queue))
	}
	for i, l := range ls {
		select {
		case err := <-l.done:
			if err != nil {
				t.Fatalf("line %d: %v", i, err)
			}
		default:
			t.Fatalf("line %d not finished", i)
		}
	}
	buf := make([]byte, 64)
	n, err := r.Read(buf)
	if want := `{"i":0}` + "\n" + `{"i":1}` + "\n" + `{"i":2}` + "\n"; err != nil || string(buf[:n]) != want {
		t.Fatalf("read %q, %v; want %q in one read", buf[:n], err, want)
	}
}

// When the pipe is full, what combine could not write goes back to the
// front of the queue, as being written, for the writer goroutine, and no
// waiter is told anything yet.
func TestWriterCombineLeavesWhatDoesNotFit(t *testing.T) {
	_, pw := osPipe(t)
	w := NewWriter(pw)
	defer w.Close()
	fill := make([]byte, 1<<20)
	if n, err := w.direct(fill); err != nil || n == len(fill) {
		t.Fatalf("filling the pipe: %d, %v", n, err)
	}
	ls := queuedLines(w, 3)
	w.combine()
	if len(w.queue) != 3 {
		t.Fatalf("%d lines queued, want the 3 back", len(w.queue))
	}
	for i, l := range w.queue {
		if l != ls[i] || l.state != writing || l.off != 0 {
			t.Fatalf("queue[%d] = line %p state %d off %d", i, l, l.state, l.off)
		}
		if len(l.done) != 0 {
			t.Fatalf("line %d told an outcome", i)
		}
	}
}
