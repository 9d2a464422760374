package jsonl

import (
	"bytes"
	"io"
)

// A line longer than the read buffer used to be assembled from the
// buffer's fills: 4 KiB reads, each copied once more into the line, about
// 95 reads for a 380 KB page and 4,000 for a 16 MB result. Once the read
// buffer is found too short (and so is empty), readLong reads the rest of
// the line straight into the line's own buffer, as much as the source has
// at a time. What such a read brings past the line's newline belongs to
// the next lines: it goes back in front of the source (carrySource), to be
// read through the buffer as usual. Past chunkAfter the line goes on in
// pooled chunks, joined once at its end (reader_chunks.go).

// minLongRead is the least room a long read is offered.
const minLongRead = 64 << 10

// maxEmptyReads is how many reads returning nothing and no error in a row
// make a source broken, as for bufio.
const maxEmptyReads = 100

// carrySource is the source under the read buffer: the bytes a long read
// took past its line, then the error that came with them if any, then the
// source itself.
type carrySource struct {
	carry []byte
	err   error
	rd    io.Reader
}

func (c *carrySource) Read(p []byte) (int, error) {
	if len(c.carry) > 0 {
		n := copy(p, c.carry)
		c.carry = c.carry[n:]
		return n, nil
	}
	if err := c.err; err != nil {
		// Once: a lasting condition (the end, a closed pipe) will be
		// reported by the source again; a passed deadline must not be.
		c.err = nil
		return 0, err
	}
	return c.rd.Read(p)
}

// pending reports whether c holds what the source no longer has.
func (c *carrySource) pending() bool { return len(c.carry) > 0 || c.err != nil }

// pushBack puts p (a copy of it: p is in a frame's buffer, which is
// reused) in front of what is still to be read.
func (c *carrySource) pushBack(p []byte) {
	if len(p) == 0 {
		return
	}
	c.carry = append(append(make([]byte, 0, len(p)+len(c.carry)), p...), c.carry...)
}

// readLong goes on with a line that does not fit the read buffer, which
// is empty now; r.frame holds the line so far. It returns as readLine
// does.
func (r *Reader) readLong() ([]byte, error) {
	empty := 0
	for {
		dst := &r.frame
		switch {
		case len(r.chunks) > 0:
			dst = r.nextChunk()
		case cap(r.frame)-len(r.frame) >= minLongRead:
		case !r.sized && r.lastLong > cap(r.frame) && cap(r.frame) >= chunkAfter:
			// A line past chunkAfter after one longer still: sized for
			// that one (reader_sized.go) instead of chunks and a join.
			r.sized = true
			r.frame = growFrame(r.frame, r.sizedRoom())
			continue
		case cap(r.frame) >= chunkAfter:
			// Past chunkAfter the line goes on in chunks
			// (reader_chunks.go).
			dst = r.nextChunk()
		default:
			// Lines of a stream tend to come in sizes: room for a
			// quarter more than the last long line, up to the size of
			// buffer kept between frames, saves the doublings' copies;
			// a line that fills most of it can be given up whole
			// (GiveUpFrame) rather than copied out.
			room := max(minLongRead, min(r.lastLong*5/4, keepFrameBuffer)-len(r.frame))
			r.frame = growFrame(r.frame, room)
		}
		seen := len(*dst)
		// Through the buffer, which is empty: bufio reads a request
		// this large (at least readBufferSize) straight into it, and
		// keeps a pending error.
		n, err := r.br.Read((*dst)[seen:cap(*dst)])
		*dst = (*dst)[:seen+n]
		if i := bytes.IndexByte((*dst)[seen:], '\n'); i >= 0 {
			end := seen + i
			r.src.pushBack((*dst)[end+1:])
			if err != nil {
				// It came with the line: it is the next lines' to meet.
				r.src.err = err
			}
			*dst = (*dst)[:end+1]
			if size := len(r.frame) + r.chunked() - 1; r.MaxFrameSize > 0 && size > r.MaxFrameSize+1 {
				// Too long even without a '\r': refused before the
				// join.
				*dst = (*dst)[:end]
				if r.lastByte() == '\r' {
					size--
				}
				r.dropChunks()
				r.frame = r.frame[:0]
				return nil, &FrameTooLargeError{Limit: r.MaxFrameSize, Size: int64(size)}
			}
			r.joinChunks()
			r.assembled, r.lastLong = true, len(r.frame)
			line := trimEOL(r.frame)
			if r.MaxFrameSize > 0 && len(line) > r.MaxFrameSize {
				return nil, &FrameTooLargeError{Limit: r.MaxFrameSize, Size: int64(len(line))}
			}
			return line, nil
		}
		// The chunks are summed only under a limit: with none (a 256 MiB
		// result read with -1) every read would walk them all again.
		if r.MaxFrameSize > 0 && len(r.frame)+r.chunked() > r.MaxFrameSize+1 {
			// Too long to keep: skipped as readLine would (+1 for a
			// '\r' that may end the read).
			size, last := int64(len(r.frame)+r.chunked()), r.lastByte()
			r.dropChunks()
			if isTimeout(err) {
				r.skipping, r.skipped, r.skipLast = true, size, last
				r.frame = r.frame[:0]
				return nil, err
			}
			if err == nil {
				return nil, r.skipLine(size, last)
			}
			// The input ended or failed inside the line.
			r.frame = r.frame[:0]
			if err != io.EOF {
				r.err = err
				return nil, nil
			}
			r.err = io.EOF
			if last == '\r' {
				size--
			}
			return nil, &FrameTooLargeError{Limit: r.MaxFrameSize, Size: size}
		}
		switch {
		case err == nil:
			if n == 0 {
				if empty++; empty >= maxEmptyReads {
					r.dropChunks()
					r.err = io.ErrNoProgress
					return nil, nil
				}
			} else {
				empty = 0
			}
		case isTimeout(err):
			// What arrived stays for the next call, in r.frame, where
			// readLine goes on with it.
			r.joinChunks()
			r.resume = true
			return nil, err
		case err == io.EOF && len(r.frame)+r.chunked() > 0:
			// A last line without a newline is still a frame.
			r.joinChunks()
			r.err = io.EOF
			r.assembled = true
			line := trimCR(r.frame)
			if r.MaxFrameSize > 0 && len(line) > r.MaxFrameSize {
				return nil, &FrameTooLargeError{Limit: r.MaxFrameSize, Size: int64(len(line))}
			}
			return line, nil
		default:
			r.dropChunks()
			r.err = err
			return nil, nil
		}
	}
}

// growFrame returns b with room for at least room more bytes, at least
// doubling its capacity: append grows large slices by only a quarter, so
// a 16 MiB line would be copied about five times over. The room is not
// zeroed (makeNoZero): reads fill it, and only what they filled is ever
// part of the line.
func growFrame(b []byte, room int) []byte {
	nb := makeNoZero(max(len(b)+room, 2*cap(b)))[:len(b)]
	copy(nb, b)
	return nb
}
