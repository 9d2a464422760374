package jsonl

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Errors of Writer. Writes fail with them (wrapped) from then on.
var (
	// ErrWriterClosed: Close was called.
	ErrWriterClosed = errors.New("jsonl: writer closed")
)

// keepLineBuffer bounds the line buffers kept for reuse.
const keepLineBuffer = 1 << 20

// Writer writes frames as lines, one Write call on the underlying writer
// per frame (frame plus '\n'), never interleaving two frames.
//
// The underlying Write runs on a goroutine owned by the Writer, so that a
// WriteFrame blocked on a full pipe can still return when its context ends.
// A line whose WriteFrame gave up that way is not cut short: it stays in
// flight and is written whole (or fails), and later frames wait for it, so
// the framing always holds. A caller that gave up therefore cannot know
// whether its line reached the peer; the peer may still receive it (for a
// request, that is what notifications/cancelled is for).
//
// All methods are safe for concurrent use. The owner must call Close, and
// must also close the underlying writer (or otherwise make a pending Write
// return) for the Writer's goroutine to end: Close alone cannot interrupt
// a Write that is already blocked.
type Writer struct {
	w      io.Writer
	turn   chan struct{} // holds a token while a WriteFrame owns the writer goroutine
	work   chan *[]byte
	result chan error // buffered 1: the outcome of the write in progress
	quit   chan struct{}

	closeOnce sync.Once
	startOnce sync.Once

	mu  sync.Mutex
	err error // sticky: ErrWriterClosed or a write error

	pool sync.Pool // of *[]byte line buffers
}

// NewWriter returns a Writer that writes lines to w.
func NewWriter(w io.Writer) *Writer {
	return &Writer{
		w:      w,
		turn:   make(chan struct{}, 1),
		work:   make(chan *[]byte),
		result: make(chan error, 1),
		quit:   make(chan struct{}),
	}
}

// WriteFrame writes frame followed by '\n'. frame must not contain '\n'
// (a frame that does is refused, since it would break the framing); the
// Writer copies it, so the caller may reuse frame once WriteFrame returns.
//
// WriteFrame waits for earlier writes to finish; it returns ctx's error if
// ctx ends first. If ctx ends while the line is being written, WriteFrame
// returns ctx's error at once and the line is still written whole in the
// background.
func (w *Writer) WriteFrame(ctx context.Context, frame []byte) error {
	if i := bytes.IndexByte(frame, '\n'); i >= 0 {
		return fmt.Errorf("jsonl: frame contains a newline at byte %d", i)
	}
	if err := w.stickyErr(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	select {
	case w.turn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-w.quit:
		return ErrWriterClosed
	}
	holdTurn := true
	defer func() {
		if holdTurn {
			<-w.turn
		}
	}()
	// An earlier holder of the turn may have failed the writer.
	if err := w.stickyErr(); err != nil {
		return err
	}
	w.startOnce.Do(func() { go w.loop() })

	line := w.getBuffer()
	*line = append(append(*line, frame...), '\n')
	select {
	case w.work <- line:
	case <-ctx.Done():
		w.putBuffer(line)
		return ctx.Err()
	case <-w.quit:
		w.putBuffer(line)
		return ErrWriterClosed
	}
	select {
	case err := <-w.result:
		return w.finish(err)
	case <-ctx.Done():
		// The write may have finished just as ctx ended.
		select {
		case err := <-w.result:
			return w.finish(err)
		default:
		}
		// The line is being written and will be written whole: hand the
		// turn to a waiter that releases it when the write is done, so
		// the next frame cannot interleave with it.
		holdTurn = false
		go func() {
			select {
			case err := <-w.result:
				w.finish(err)
			case <-w.quit:
			}
			<-w.turn
		}()
		return ctx.Err()
	case <-w.quit:
		// A line written just as Close was called still counts.
		select {
		case err := <-w.result:
			return w.finish(err)
		default:
		}
		return ErrWriterClosed
	}
}

// finish records a write error as sticky and returns it.
func (w *Writer) finish(err error) error {
	if err != nil {
		w.setErr(err)
	}
	return err
}

// loop performs the underlying writes, one line at a time.
func (w *Writer) loop() {
	for {
		select {
		case line := <-w.work:
			_, err := w.w.Write(*line)
			w.putBuffer(line)
			if err != nil {
				err = fmt.Errorf("jsonl: write: %w", err)
			}
			// The result buffer is empty: each line's result is
			// taken, by its WriteFrame or by the waiter it left
			// behind, before the turn passes to the next line.
			w.result <- err
		case <-w.quit:
			return
		}
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
func (w *Writer) Err() error { return w.stickyErr() }

func (w *Writer) stickyErr() error {
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

func (w *Writer) getBuffer() *[]byte {
	if b, ok := w.pool.Get().(*[]byte); ok {
		*b = (*b)[:0]
		return b
	}
	b := make([]byte, 0, 512)
	return &b
}

func (w *Writer) putBuffer(b *[]byte) {
	if cap(*b) <= keepLineBuffer {
		w.pool.Put(b)
	}
}
