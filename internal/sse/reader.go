package sse

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"time"
)

const (
	initialBufSize = 4096
	// maxEmptyReads bounds how often an io.Reader may return 0, nil before
	// the reader gives up, so a broken source cannot spin forever.
	maxEmptyReads = 100
)

var utf8BOM = []byte("\xEF\xBB\xBF")

// Reader parses an event stream. It reads only as much as it needs, so an
// event is returned as soon as its closing blank line has arrived.
//
// A Reader is not safe for concurrent use; one goroutine calls Next.
type Reader struct {
	src io.Reader
	err error // sticky error from src (io.EOF included)

	buf        []byte
	start, end int // unread input is buf[start:end]
	// scanned counts the bytes at buf[start:] already searched for a line
	// end, so that a line arriving in many reads is scanned once, not from
	// its start after every read (which made one endless line cost
	// quadratic time).
	scanned int
	// searched counts the bytes searched for a line end in lines that
	// spanned reads; tests use it to see that the scan is linear.
	searched int64

	maxSize   int
	bomDone   bool  // the leading byte-order mark was handled
	skipLF    bool  // the last line ended in CR: a LF right after it is part of that line end
	lineNo    int64 // lines consumed so far, for error messages
	emptyRead int

	// The event being assembled.
	pending bool // a field was seen since the last dispatch
	// data holds the data lines seen, each followed by "\n", unless
	// viewing: then the one data line seen so far is view, a slice of
	// buf not copied yet (see view.go).
	data     []byte
	view     []byte
	viewing  bool
	hasData  bool
	evType   string
	id       string
	hasID    bool
	retry    time.Duration
	hasRetry bool

	lastID string
	fail   error // sticky terminal error of Next
}

// NewReader returns a Reader parsing r. There is no size limit until
// SetMaxEventSize is called.
func NewReader(r io.Reader) *Reader {
	return &Reader{src: r}
}

// SetMaxEventSize bounds, in bytes, both any single line and the data, type
// and id of one event together. 0 (the default) means unlimited. Exceeding
// it makes Next fail with a *FormatError wrapping ErrEventTooLarge.
func (r *Reader) SetMaxEventSize(n int) {
	if n < 0 {
		n = 0
	}
	r.maxSize = n
}

// LastEventID returns the last event id seen. As the SSE rules say, it
// persists across events until an "id" field changes it (an empty id
// resets it). It is what a client sends as Last-Event-ID when resuming.
func (r *Reader) LastEventID() string { return r.lastID }

// Next returns the next event. It returns io.EOF once the stream ended
// cleanly; an unterminated last event is returned before that (see the
// package comment). A read error other than io.EOF is returned as it is,
// and the partial event is dropped because it may be truncated. Errors are
// sticky: after one, Next keeps returning it.
func (r *Reader) Next() (Event, error) {
	ev, err := r.next()
	if ev.Data != nil {
		ev.Data = bytes.Clone(ev.Data)
	}
	return ev, err
}

// next is Next with the event's Data borrowed: valid until the next call.
func (r *Reader) next() (Event, error) {
	if r.fail != nil {
		return Event{}, r.fail
	}
	for {
		line, err := r.readLine()
		if err != nil {
			if err == io.EOF && r.pending {
				// The stream ended without the blank line: dispatch anyway.
				ev := r.dispatch()
				r.fail = io.EOF
				return ev, nil
			}
			r.reset()
			r.fail = err
			return Event{}, err
		}
		if len(line) == 0 {
			if r.pending {
				return r.dispatch(), nil
			}
			continue
		}
		if err := r.field(line); err != nil {
			r.reset()
			r.fail = err
			return Event{}, err
		}
	}
}

// field interprets one non-empty line.
func (r *Reader) field(line []byte) error {
	if line[0] == ':' {
		return nil // a comment, typically a keep-alive
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "data":
		switch {
		case !r.hasData:
			// Most events have one data line: it is kept where it lies
			// in buf until the buffer must move (see materialize).
			r.view, r.viewing = value, true
		default:
			r.materialize()
			r.data = append(r.data, value...)
			r.data = append(r.data, '\n')
		}
		r.hasData = true
		r.pending = true
	case "event":
		if string(value) == "message" {
			r.evType = "message" // avoid an allocation for the common type
		} else {
			r.evType = string(value)
		}
		r.pending = true
	case "id":
		if bytes.IndexByte(value, 0) >= 0 {
			return nil // the SSE rules ignore an id containing NUL
		}
		r.id = string(value)
		r.hasID = true
		r.lastID = r.id
		r.pending = true
	case "retry":
		if d, ok := parseRetry(value); ok {
			r.retry = d
			r.hasRetry = true
			r.pending = true
		}
	default:
		return nil // unknown fields are ignored
	}
	if r.maxSize > 0 && r.dataLen()+len(r.evType)+len(r.id) > r.maxSize {
		return &FormatError{
			Line:   r.lineNo,
			Reason: fmt.Sprintf("event larger than the maximum of %d bytes", r.maxSize),
			Err:    ErrEventTooLarge,
		}
	}
	return nil
}

// parseRetry accepts ASCII digits only (milliseconds), as the SSE rules
// require; anything else, or a value too large for a Duration, is ignored.
func parseRetry(v []byte) (time.Duration, bool) {
	if len(v) == 0 {
		return 0, false
	}
	const maxMS = math.MaxInt64 / int64(time.Millisecond)
	var ms int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		ms = ms*10 + int64(c-'0')
		if ms > maxMS {
			return 0, false
		}
	}
	return time.Duration(ms) * time.Millisecond, true
}

func (r *Reader) dispatch() Event {
	ev := Event{
		Type:     r.evType,
		ID:       r.id,
		HasID:    r.hasID,
		Retry:    r.retry,
		HasRetry: r.hasRetry,
	}
	if r.hasData {
		ev.Data = r.eventData()
	}
	r.reset()
	return ev
}

func (r *Reader) reset() {
	r.pending = false
	r.data = r.data[:0]
	r.view, r.viewing = nil, false
	r.hasData = false
	r.evType = ""
	r.id = ""
	r.hasID = false
	r.retry = 0
	r.hasRetry = false
}

// readLine returns the next line without its terminator. The slice is
// valid until the next call. A last line without a terminator is returned
// at EOF; after that readLine returns the source's error.
func (r *Reader) readLine() ([]byte, error) {
	for {
		if r.start < r.end {
			if !r.bomDone {
				if r.end-r.start < len(utf8BOM) && r.err == nil && bytes.HasPrefix(utf8BOM, r.buf[r.start:r.end]) {
					// Could still be a split BOM: wait for more input.
					if err := r.fill(); err != nil {
						return nil, err
					}
					continue
				}
				if bytes.HasPrefix(r.buf[r.start:r.end], utf8BOM) {
					r.start += len(utf8BOM)
				}
				r.bomDone = true
				continue
			}
			if r.skipLF {
				r.skipLF = false
				if r.buf[r.start] == '\n' {
					r.start++
					continue
				}
			}
			chunk := r.buf[r.start:r.end]
			if i := indexLineEnd(chunk[r.scanned:]); i >= 0 {
				i += r.scanned
				r.scanned = 0
				if chunk[i] == '\r' {
					r.skipLF = true
				}
				r.start += i + 1
				r.lineNo++
				return r.checkLine(chunk[:i])
			}
			r.searched += int64(len(chunk) - r.scanned)
			r.scanned = len(chunk)
			if r.err != nil {
				// Unterminated last line.
				r.start = r.end
				r.scanned = 0
				r.lineNo++
				return r.checkLine(chunk)
			}
			if r.maxSize > 0 && len(chunk) > r.maxSize {
				return nil, r.lineTooLong(r.lineNo + 1)
			}
		}
		if r.err != nil {
			return nil, r.err
		}
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
}

func (r *Reader) checkLine(line []byte) ([]byte, error) {
	if r.maxSize > 0 && len(line) > r.maxSize {
		return nil, r.lineTooLong(r.lineNo)
	}
	return line, nil
}

func (r *Reader) lineTooLong(line int64) error {
	return &FormatError{
		Line:   line,
		Reason: fmt.Sprintf("line longer than the maximum event size of %d bytes", r.maxSize),
		Err:    ErrEventTooLarge,
	}
}

// indexLineEnd returns the index of the first CR or LF in b, or -1.
func indexLineEnd(b []byte) int {
	// Searching for LF with the assembly-backed IndexByte first keeps the
	// common LF-only stream fast; CR only matters before that LF.
	lf := bytes.IndexByte(b, '\n')
	scope := b
	if lf >= 0 {
		scope = b[:lf]
	}
	if cr := bytes.IndexByte(scope, '\r'); cr >= 0 {
		return cr
	}
	return lf
}

// fill reads more input into the buffer, growing or compacting it. A
// source error is kept in r.err and also returned when no byte came;
// io.EOF is not returned here, the caller sees it through r.err.
func (r *Reader) fill() error {
	r.materialize() // buf's bytes are about to move
	if r.start > 0 {
		n := copy(r.buf, r.buf[r.start:r.end])
		r.start, r.end = 0, n
	}
	if r.end == len(r.buf) {
		size := 2 * len(r.buf)
		if size == 0 {
			size = initialBufSize
		}
		nb := make([]byte, size)
		copy(nb, r.buf[:r.end])
		r.buf = nb
	}
	n, err := r.src.Read(r.buf[r.end:])
	if n < 0 || n > len(r.buf)-r.end {
		r.err = errors.New("sse: source reader returned an invalid byte count")
		return r.err
	}
	r.end += n
	if err != nil {
		r.err = err
		if err != io.EOF && n == 0 {
			return err
		}
		return nil
	}
	if n == 0 {
		r.emptyRead++
		if r.emptyRead >= maxEmptyReads {
			r.err = io.ErrNoProgress
			return r.err
		}
	} else {
		r.emptyRead = 0
	}
	return nil
}
