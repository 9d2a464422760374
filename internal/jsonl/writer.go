package jsonl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
)

// Errors of Writer. Writes fail with them (wrapped) from then on.
var (
	// ErrWriterClosed: Close was called.
	ErrWriterClosed = errors.New("jsonl: writer closed")
)

// keepLineBuffer bounds the line buffers kept for reuse.
const keepLineBuffer = 1 << 20

// maxBatch bounds how many bytes of queued lines are joined into one
// underlying Write; a line larger than that is written on its own.
const maxBatch = 256 << 10

// Writer writes frames as lines (frame plus '\n'), never interleaving two
// frames and never cutting one short.
//
// The underlying Writes run on a goroutine owned by the Writer, so that a
// WriteFrame blocked on a full pipe can still return when its context
// ends. Lines queued while a Write is in progress are joined into the next
// Write, so many concurrent writers cost one system call per batch instead
// of one each; a lone writer still gets its line written at once. Where a
// WriteFrame could write its own line directly (an OS pipe), it also writes
// the lines queued meanwhile, if they fit, so that the writer goroutine
// need not wake up for them.
//
// A line whose WriteFrame gave up while the line was queued is dropped; a
// line that was already being written stays in flight and is written whole
// (or fails), and later frames follow it, so the framing always holds. A
// caller that gave up therefore cannot know whether its line reached the
// peer; the peer may still receive it (for a request, that is what
// notifications/cancelled is for).
//
// All methods are safe for concurrent use. The owner must call Close, and
// must also close the underlying writer (or otherwise make a pending Write
// return) for the Writer's goroutine to end: Close alone cannot interrupt
// a Write that is already blocked.
type Writer struct {
	w    io.Writer
	wake chan struct{} // capacity 1: the queue has lines
	quit chan struct{}

	closeOnce sync.Once
	startOnce sync.Once

	mu    sync.Mutex
	queue []*line // waiting for the writer goroutine, in order
	err   error   // sticky: ErrWriterClosed or a write error
	// busy is set while a Write of the underlying writer is in progress,
	// by the writer goroutine or by a WriteFrame writing directly.
	busy bool

	// direct, when non-nil, writes without blocking (see tryDirect).
	direct func(p []byte) (int, error)

	pool sync.Pool // of *line

	// Owned by the writer goroutine.
	taken []*line
	batch []byte
}

// line is one frame on its way. state and the queue are guarded by
// Writer.mu; done receives the outcome once (capacity 1).
type line struct {
	buf   []byte
	off   int // bytes of buf already written (by a direct attempt)
	done  chan error
	state lineState
}

type lineState int

const (
	queued    lineState = iota
	writing             // taken by the writer goroutine
	abandoned           // its WriteFrame gave up while it was being written
)

// NewWriter returns a Writer that writes lines to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{
		w:      w,
		wake:   make(chan struct{}, 1),
		quit:   make(chan struct{}),
		direct: nonBlockingWriter(w),
	}
}

// WriteFrame writes frame followed by '\n'. frame must not contain '\n'
// (a frame that does is refused, since it would break the framing); the
// Writer copies it, so the caller may reuse frame once WriteFrame returns.
//
// WriteFrame waits for earlier lines to be written and its own to be
// written; it returns ctx's error if ctx ends first. If ctx ends while
// the line is waiting, it is not written at all; if ctx ends while the
// line is being written, WriteFrame returns ctx's error at once and the
// line is still written whole in the background.
func (w *Writer) WriteFrame(ctx context.Context, frame []byte) error {
	if i := bytes.IndexByte(frame, '\n'); i >= 0 {
		return fmt.Errorf("jsonl: frame contains a newline at byte %d", i)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	l := w.getLine()
	l.buf = append(append(l.buf, frame...), '\n')
	w.mu.Lock()
	if w.err != nil {
		err := w.err
		w.mu.Unlock()
		w.putLine(l)
		return err
	}
	if w.direct != nil && !w.busy && len(w.queue) == 0 {
		// Nobody writes and nothing waits: try writing on this
		// goroutine, without blocking.
		w.busy = true
		w.mu.Unlock()
		if done, err := w.tryDirect(l); done {
			w.putLine(l)
			return err
		}
		// What is left goes first, written by the goroutine.
		w.wakeLoop()
	} else {
		// Whoever is writing (the goroutine, or a WriteFrame writing
		// directly, see combine) looks at the queue again before it
		// stops: only an idle writer needs waking.
		idle := !w.busy
		w.queue = append(w.queue, l)
		w.mu.Unlock()
		if idle {
			w.wakeLoop()
		}
	}

	select {
	case err := <-l.done:
		w.putLine(l)
		return err
	case <-ctx.Done():
		return w.giveUp(l, ctx.Err())
	case <-w.quit:
		return w.giveUp(l, ErrWriterClosed)
	}
}

// wakeLoop starts the writer goroutine, or wakes it to look at the queue.
func (w *Writer) wakeLoop() {
	w.startOnce.Do(func() { go w.loop() })
	select {
	case w.wake <- struct{}{}:
	default: // the writer goroutine is already due to look at the queue
	}
}

// giveUp returns why for a WriteFrame that stops waiting: a line still
// queued is dropped, one being written is left to complete. A line whose
// outcome arrived meanwhile returns that outcome.
func (w *Writer) giveUp(l *line, why error) error {
	w.mu.Lock()
	switch l.state {
	case queued:
		if i := slices.Index(w.queue, l); i >= 0 {
			w.queue = slices.Delete(w.queue, i, i+1)
		}
		w.mu.Unlock()
		w.putLine(l)
		return why
	case writing:
		select {
		case err := <-l.done:
			w.mu.Unlock()
			w.putLine(l)
			return err
		default:
		}
		// The writer goroutine recycles it after the write.
		l.state = abandoned
	}
	w.mu.Unlock()
	return why
}

// loop performs the underlying writes: everything queued at the time, in
// order, joined into as few Writes as maxBatch allows.
func (w *Writer) loop() {
	for {
		select {
		case <-w.wake:
		case <-w.quit:
			return
		}
		for w.writeQueued() {
		}
	}
}

// writeQueued writes what is queued and reports whether there was any.
func (w *Writer) writeQueued() bool {
	w.mu.Lock()
	if len(w.queue) == 0 || w.busy {
		// A direct write in progress wakes the goroutine when it ends.
		w.mu.Unlock()
		return false
	}
	w.busy = true
	taken := append(w.taken[:0], w.queue...)
	clear(w.queue)
	w.queue = w.queue[:0]
	sticky := w.err
	for _, l := range taken {
		l.state = writing
	}
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.busy = false
		w.mu.Unlock()
	}()

	for start := 0; start < len(taken); {
		end, err := start+1, sticky
		if err == nil {
			end, err = w.writeBatch(taken, start)
			if err != nil {
				err = fmt.Errorf("jsonl: write: %w", err)
				w.setErr(err)
				sticky = err
			}
		}
		w.finish(taken[start:end], err)
		start = end
	}
	clear(taken)
	w.taken = taken[:0]
	return true
}

// writeBatch writes taken[start:end] in one Write, choosing end so that
// the batch stays under maxBatch (a single larger line goes alone,
// without a copy).
func (w *Writer) writeBatch(taken []*line, start int) (end int, err error) {
	first := taken[start].buf[taken[start].off:]
	end = start + 1
	if len(first) >= maxBatch || end == len(taken) {
		_, err = w.w.Write(first)
		return end, err
	}
	b := append(w.batch[:0], first...)
	for end < len(taken) && len(b)+len(taken[end].buf) <= maxBatch {
		b = append(b, taken[end].buf...)
		end++
	}
	_, err = w.w.Write(b)
	if cap(b) <= maxBatch {
		w.batch = b[:0]
	}
	return end, err
}

// finish hands each line its outcome, recycling those nobody waits for.
func (w *Writer) finish(ls []*line, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range ls {
		if l.state == abandoned {
			w.putLine(l)
			continue
		}
		l.done <- err
	}
}

// Close makes every pending and later WriteFrame fail with ErrWriterClosed
// and lets the Writer's goroutine end once any write in progress returns.
// It does not close the underlying writer. It is idempotent.
func (w *Writer) Close() error {
	w.closeOnce.Do(func() {
		w.setErr(ErrWriterClosed)
		close(w.quit)
	})
	return nil
}

// Err returns why the Writer stopped accepting frames, or nil.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *Writer) setErr(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
}

func (w *Writer) getLine() *line {
	if l, ok := w.pool.Get().(*line); ok {
		return l
	}
	return &line{buf: make([]byte, 0, 512), done: make(chan error, 1)}
}

// putLine recycles l; its done channel must be empty.
func (w *Writer) putLine(l *line) {
	if cap(l.buf) > keepLineBuffer {
		return
	}
	l.buf, l.off = l.buf[:0], 0
	l.state = queued
	w.pool.Put(l)
}

// tryDirect writes l on the caller's goroutine without blocking; the
// writer must be busy (claimed by the caller). done reports that l needs
// nothing more (written, or failed with err). Otherwise the part not
// written is queued first, already counting as being written, so that a
// caller giving up cannot drop half a line; the writer goroutine finishes
// it.
func (w *Writer) tryDirect(l *line) (done bool, err error) {
	n, err := w.direct(l.buf)
	l.off = n
	if err == nil && n == len(l.buf) {
		w.combine()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.busy = false
	if len(w.queue) > 0 {
		// Lines queued meanwhile (and not written by combine) wait
		// for the goroutine, which their WriteFrames did not wake
		// while this write was busy: start or wake it whatever the
		// outcome, or after a failed write they would wait for their
		// ctx or Close (the loop fails them with the sticky error).
		w.wakeLoop()
	}
	if err != nil {
		err = fmt.Errorf("jsonl: write: %w", err)
		if w.err == nil {
			w.err = err
		}
		return true, err
	}
	if n == len(l.buf) {
		return true, nil
	}
	l.state = writing
	w.queue = slices.Insert(w.queue, 0, l)
	return false, nil
}

// combine writes, on the goroutine of a WriteFrame that has just written
// its own line directly (the writer still busy), the lines queued
// meanwhile, joined and without blocking: their WriteFrames are then woken
// by this goroutine, and the writer goroutine need not wake up for them.
// What does not fit in the pipe at once is put back at the front of the
// queue, as being written, for the writer goroutine; a failed write fails
// the lines it carried and becomes sticky, as writeQueued does.
func (w *Writer) combine() {
	for {
		w.mu.Lock()
		if len(w.queue) == 0 || w.err != nil {
			w.mu.Unlock()
			return
		}
		taken, size := w.taken[:0], 0
		for _, l := range w.queue {
			if len(taken) > 0 && size+len(l.buf)-l.off > maxBatch {
				break
			}
			taken = append(taken, l)
			size += len(l.buf) - l.off
			l.state = writing
		}
		w.queue = slices.Delete(w.queue, 0, len(taken))
		w.mu.Unlock()

		b := w.batch[:0]
		for _, l := range taken {
			b = append(b, l.buf[l.off:]...)
		}
		n, err := w.direct(b)
		if cap(b) <= maxBatch {
			w.batch = b[:0]
		}
		written := 0
		for written < len(taken) {
			l := taken[written]
			left := len(l.buf) - l.off
			if n < left {
				l.off += n
				break
			}
			n -= left
			l.off = len(l.buf)
			written++
		}
		w.finish(taken[:written], nil)
		rest := taken[written:]
		if err != nil {
			err = fmt.Errorf("jsonl: write: %w", err)
			w.setErr(err)
			w.finish(rest, err)
			rest = nil
		}
		if len(rest) > 0 {
			w.mu.Lock()
			w.queue = slices.Insert(w.queue, 0, rest...)
			w.mu.Unlock()
		}
		clear(taken)
		w.taken = taken[:0]
		if len(rest) > 0 || err != nil {
			return
		}
	}
}
