package sse

import "io"

// Reading without copies. A Streamable HTTP reply is most often one event
// with one data line, read whole by one fill of the buffer; Next copies
// its data out (the caller keeps it), which costs a copy and an
// allocation per reply that a caller decoding the data at once does not
// need. NextView returns the data where it lies, and a Reader can be
// Reset for another stream with its buffers kept.

// maxKeptBuffer bounds the buffers Reset keeps: a stream that carried a
// large event leaves them to the collector.
const maxKeptBuffer = 64 << 10

// NextView is Next, except that the event's Data is only valid until the
// next call to Next, NextView or Reset: it is a slice of the Reader's own
// buffers (of the read buffer itself for an event of one data line that
// arrived whole), not a copy.
func (r *Reader) NextView() (Event, error) { return r.next() }

// Reset makes r read src from its start, as NewReader(src) would, with no
// size limit; it keeps r's buffers (up to 64 KiB each) for reuse. Reset(nil)
// lets the last source go.
func (r *Reader) Reset(src io.Reader) {
	buf, data := r.buf, r.data[:0]
	if cap(buf) > maxKeptBuffer {
		buf = nil
	}
	if cap(data) > maxKeptBuffer {
		data = nil
	}
	*r = Reader{src: src, buf: buf, data: data}
}

// materialize copies a data line held as a view into data, before the
// bytes it points at in buf move or are overwritten.
func (r *Reader) materialize() {
	if !r.viewing {
		return
	}
	r.data = append(r.data[:0], r.view...)
	r.data = append(r.data, '\n')
	r.view, r.viewing = nil, false
}

// dataLen is the size of the event's data so far, counted as data holds
// it (each line followed by "\n").
func (r *Reader) dataLen() int {
	if r.viewing {
		return len(r.view) + 1
	}
	return len(r.data)
}

// eventData is the event's data lines joined, borrowed: the view, or data
// without the newline that follows its last line.
func (r *Reader) eventData() []byte {
	if r.viewing {
		if r.view == nil {
			return []byte{} // a bare "data" line: empty data, which is not nil
		}
		return r.view
	}
	return r.data[:len(r.data)-1]
}
