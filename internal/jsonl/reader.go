package jsonl

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// readBufferSize is the read-ahead buffer. Frames up to this size are
// returned straight from it, without copying; longer ones are assembled.
// It lives as long as the connection, so it is sized for the common
// message (a call's response, a notification) rather than the largest:
// every idle stdio connection holds it, and assembling a longer line
// costs one copy, small next to decoding it.
const readBufferSize = 4 << 10

// keepFrameBuffer bounds the assembly buffer kept between frames: a single
// huge frame should not pin its memory for the rest of the connection.
const keepFrameBuffer = 1 << 20

// FrameTooLargeError reports a line longer than Reader.MaxFrameSize. The
// line has been skipped: the Reader is positioned after its newline and
// may be read on.
type FrameTooLargeError struct {
	// Limit is the configured MaxFrameSize.
	Limit int
	// Size is the length of the skipped line in bytes (without its line
	// terminator). When the input ended inside the line, it is the number
	// of bytes seen before the end.
	Size int64
}

func (e *FrameTooLargeError) Error() string {
	return fmt.Sprintf("jsonl: frame of %d bytes exceeds the maximum frame size of %d bytes; skipped", e.Size, e.Limit)
}

// Reader splits a byte stream into frames, one per line.
//
// Lines end at '\n'; one '\r' before it is dropped, so CRLF input works.
// Blank lines (only spaces, tabs and '\r') are skipped, unless they are
// longer than MaxFrameSize (an oversized line is reported unread). A last
// line without a newline is returned as a frame when the input ends.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	// MaxFrameSize, when positive, is the longest line accepted, in bytes
	// without the terminator. A longer line is skipped and reported as a
	// *FrameTooLargeError; reading may continue after it. Zero means no
	// limit. Set it before the first ReadFrame.
	MaxFrameSize int

	waiter ReadyWaiter // the source, when it can wait for input without a buffer
	// expecting: input is expected soon (see ExpectInput), so a waiter's
	// Reader keeps its buffer and reads at once.
	expecting bool
	src       carrySource   // what br reads: the source, after what a long read left
	br        *bufio.Reader // nil while a waiter's Reader holds no buffer
	frame     []byte        // assembly buffer for frames longer than the read buffer
	err       error         // sticky terminal error
	// assembled says the line readLine returned last is in frame, not in
	// the read buffer.
	assembled bool
	// lastLong is the length of the last line readLong finished: the
	// next long line's buffer is sized for it at once.
	lastLong int
	// sized says frame was sized for the line being read (reader_sized.go)
	// and is to be fitted to it once it is read (fitSized); it lasts
	// while a read deadline cuts the line short.
	sized bool
	// chunks hold the rest of a line longer than chunkAfter, after
	// frame (reader_chunks.go); owned are the pooled arrays under them.
	chunks [][]byte
	owned  []*[chunkSize]byte

	// A read that failed with a timeout (os.ErrDeadlineExceeded) leaves
	// the line it cut short here, to be finished by the next ReadFrame:
	// resume says frame holds its start; skipping, that it was a line
	// being skipped for its size, skipped bytes of it so far, the last
	// of them skipLast.
	resume   bool
	skipping bool
	skipped  int64
	skipLast byte
}

// ReadyWaiter is a source that can wait until it has input, or has ended,
// without reading it: an OS pipe, whose reader can park in the runtime's
// poller with no buffer. A Reader over a ReadyWaiter holds no read buffer
// while it waits between frames; it takes one from a pool shared by all
// Readers when input arrives, and gives it back once it has used up what
// the buffer held. An idle connection then costs no buffer at all.
//
// WaitReady returns when input may be there (a spurious return is fine:
// the read that follows waits as usual) or with the error that ends the
// wait. An error for which errors.Is(err, os.ErrDeadlineExceeded) holds is
// not terminal, as for a read.
type ReadyWaiter interface {
	io.Reader
	WaitReady() error
}

// readBuffers holds the read buffers of idle Readers over ReadyWaiters.
var readBuffers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, readBufferSize) }}

// NewReader returns a Reader that reads frames from r.
func NewReader(rd io.Reader) *Reader {
	r := &Reader{src: carrySource{rd: rd}}
	if w, ok := rd.(ReadyWaiter); ok {
		r.waiter = w
		return r
	}
	r.br = bufio.NewReaderSize(&r.src, readBufferSize)
	return r
}

// ExpectInput says whether input is expected soon: the reply to a request
// in flight, which its caller reads itself. Over a ReadyWaiter the Reader
// then keeps its read buffer between frames and reads at once, the read
// waiting as a read does, instead of giving the buffer back and first
// asking the source whether input is there (a system call a message,
// which a sequential caller paid on every reply). A connection with
// nothing in flight holds no buffer all the same.
func (r *Reader) ExpectInput(expecting bool) { r.expecting = expecting }

// Idle says that no input is expected (see ExpectInput) and gives back
// a ReadyWaiter's read buffer if it holds nothing: the connection is about
// to wait without reading (it parks). It reports whether the Reader now
// holds no read buffer.
func (r *Reader) Idle() bool {
	r.expecting = false
	if r.waiter == nil || r.resume || r.skipping {
		return r.br == nil
	}
	if r.br != nil && r.br.Buffered() == 0 && !r.src.pending() {
		r.br.Reset(nil)
		readBuffers.Put(r.br)
		r.br = nil
	}
	return r.br == nil
}

// HoldsBuffer reports whether the Reader holds a read buffer now.
func (r *Reader) HoldsBuffer() bool { return r.br != nil }

// ensureBuffer makes sure r has a read buffer; over a ReadyWaiter it first
// gives back a buffer with nothing left in it, waits for input without
// one, and then takes one from the pool (unless input is expected).
func (r *Reader) ensureBuffer() error {
	if r.waiter == nil || r.resume || r.skipping {
		return nil
	}
	if r.expecting {
		if r.br == nil {
			r.br = readBuffers.Get().(*bufio.Reader)
			r.br.Reset(&r.src)
		}
		return nil
	}
	if r.br != nil {
		if r.br.Buffered() > 0 || r.src.pending() {
			return nil
		}
		// The frame returned last (valid until this call) may live in
		// this buffer; it is no longer in use.
		r.br.Reset(nil)
		readBuffers.Put(r.br)
		r.br = nil
	}
	if !r.src.pending() {
		if err := r.waiter.WaitReady(); err != nil && isTimeout(err) {
			return err
		}
	}
	// Any other error is the read's to find and report.
	r.br = readBuffers.Get().(*bufio.Reader)
	r.br.Reset(&r.src)
	return nil
}

// Pending reports whether r holds what the source's readiness cannot
// show: bytes read ahead into its buffer, or its terminal error. The start
// of a line a deadline cut short does not count: its rest is still to
// come from the source.
func (r *Reader) Pending() bool {
	return r.err != nil || (r.br != nil && r.br.Buffered() > 0) || r.src.pending()
}

// ReadFrame returns the next non-blank line without its terminator. The
// returned slice is only valid until the next call to ReadFrame.
//
// A *FrameTooLargeError is a per-frame error: the line was skipped and the
// next call returns the following frame. An error for which
// errors.Is(err, os.ErrDeadlineExceeded) holds (a read deadline of the
// underlying file passed) is not terminal either: whatever part of a line
// had arrived is kept, and the next call goes on with it. Any other error
// is terminal and is returned again by every later call; it is io.EOF when
// the input ended cleanly (after the last frame).
func (r *Reader) ReadFrame() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	if cap(r.frame) > keepFrameBuffer && !r.resume {
		r.frame = nil
	}
	if err := r.ensureBuffer(); err != nil {
		return nil, err
	}
	for {
		var line []byte
		var err error
		if r.skipping {
			err = r.skipLine(r.skipped, r.skipLast)
		} else {
			line, err = r.readLine()
		}
		if err != nil {
			if !isFrameTooLarge(err) && !isTimeout(err) {
				r.err = err
			}
			return nil, err
		}
		if line == nil {
			return nil, r.err
		}
		if !isBlank(line) {
			return r.fitSized(line), nil
		}
	}
}

// GiveUpFrame hands the caller the frame ReadFrame returned last, when it
// was assembled in a buffer too large to be kept for the next frame
// (keepFrameBuffer), or a long line (of 64 KiB or more) fills at least
// half of its buffer: the Reader forgets that buffer, so the frame stays
// valid, and the caller may keep it, after the next ReadFrame. It reports
// whether it did; a frame it does not give up is only valid until the
// next ReadFrame, as always. A decoder can then keep slices of a large
// message instead of copying it; the next long line gets a buffer sized
// by this one's length (see readLong).
func (r *Reader) GiveUpFrame() bool {
	if !r.assembled || r.resume || r.skipping {
		return false
	}
	if c := cap(r.frame); c <= keepFrameBuffer && (len(r.frame) < minLongRead || 2*len(r.frame) < c) {
		return false
	}
	r.frame, r.assembled = nil, false
	return true
}

// readLine returns the next line (blank or not) without its terminator.
// It returns (nil, nil) when the input ended with nothing pending, after
// recording the terminal error in r.err.
func (r *Reader) readLine() ([]byte, error) {
	assembling := r.resume
	if !assembling {
		r.frame, r.sized = r.frame[:0], false
	}
	r.resume = false
	r.assembled = false
	for {
		chunk, err := r.br.ReadSlice('\n')
		switch {
		case err == nil:
			// chunk ends with '\n'.
			var line []byte
			if assembling {
				r.frame = appendDoubling(r.frame, chunk)
				line = r.frame
			} else {
				line = chunk
			}
			r.assembled = assembling
			line = trimEOL(line)
			if r.MaxFrameSize > 0 && len(line) > r.MaxFrameSize {
				return nil, &FrameTooLargeError{Limit: r.MaxFrameSize, Size: int64(len(line))}
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull) || isTimeout(err):
			// The line goes on past the buffer, or a read deadline
			// passed; then what arrived of the line is kept for the
			// next call, or how much of it once it is too long to keep.
			timeout := isTimeout(err)
			if r.MaxFrameSize > 0 && len(r.frame)+len(chunk) > r.MaxFrameSize+1 {
				// +1: the chunk may end in the '\r' of a CRLF that
				// would be trimmed; skipLine settles the exact size.
				// The frame holds at most that much, so the chunk is
				// not empty here.
				size, last := int64(len(r.frame))+int64(len(chunk)), chunk[len(chunk)-1]
				if !timeout {
					return nil, r.skipLine(size, last)
				}
				r.skipping, r.skipped, r.skipLast = true, size, last
				r.frame = r.frame[:0]
				return nil, err
			}
			r.frame = appendDoubling(r.frame, chunk)
			if timeout {
				r.resume = true
				return nil, err
			}
			// The buffer is full and so, handed out, empty now.
			return r.readLong()
		default:
			// The input ended or failed. A partial last line is still
			// a frame when the input ended cleanly.
			var line []byte
			if assembling {
				line = appendDoubling(r.frame, chunk)
				r.frame = line
			} else {
				line = chunk
			}
			r.assembled = assembling
			if err == io.EOF && len(line) > 0 {
				r.err = io.EOF
				line = trimCR(line)
				if r.MaxFrameSize > 0 && len(line) > r.MaxFrameSize {
					return nil, &FrameTooLargeError{Limit: r.MaxFrameSize, Size: int64(len(line))}
				}
				return line, nil
			}
			r.err = err
			return nil, nil
		}
	}
}

// skipLine discards input up to and including the next newline, after
// seen bytes of the line were already consumed (the last of them is last),
// and reports the line's size.
func (r *Reader) skipLine(seen int64, last byte) error {
	r.frame = r.frame[:0]
	r.skipping = false
	size := seen
	for {
		chunk, err := r.br.ReadSlice('\n')
		if err == nil {
			// Drop the '\n' and a '\r' before it, which may have
			// ended the previous chunk.
			size += int64(len(chunk)) - 1
			if len(chunk) >= 2 {
				last = chunk[len(chunk)-2]
			}
			if last == '\r' {
				size--
			}
			return &FrameTooLargeError{Limit: r.MaxFrameSize, Size: size}
		}
		size += int64(len(chunk))
		if len(chunk) > 0 {
			last = chunk[len(chunk)-1]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if isTimeout(err) {
			r.skipping, r.skipped, r.skipLast = true, size, last
			return err
		}
		if err != io.EOF {
			r.err = err
			return err
		}
		r.err = io.EOF
		if last == '\r' {
			size--
		}
		return &FrameTooLargeError{Limit: r.MaxFrameSize, Size: size}
	}
}

// isTimeout reports a read deadline that passed: the read may be retried.
func isTimeout(err error) bool {
	return errors.Is(err, os.ErrDeadlineExceeded)
}

func isFrameTooLarge(err error) bool {
	var e *FrameTooLargeError
	return errors.As(err, &e)
}

// isBlank reports whether line holds only spaces, tabs and carriage returns.
func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// trimEOL drops the '\n' that ends line and one '\r' before it.
func trimEOL(line []byte) []byte {
	return trimCR(line[:len(line)-1])
}

func trimCR(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		return line[:n-1]
	}
	return line
}

// appendDoubling appends p to b, at least doubling b's capacity when it
// must grow. append grows large slices by only a quarter, so assembling a
// 16 MiB line from 64 KiB reads would copy it about five times over.
func appendDoubling(b, p []byte) []byte {
	if need := len(b) + len(p); need > cap(b) {
		nb := make([]byte, len(b), max(need, 2*cap(b)))
		copy(nb, b)
		b = nb
	}
	return append(b, p...)
}
