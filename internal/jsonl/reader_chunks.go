package jsonl

import (
	"bytes"
	"sync"
)

// A line past chunkAfter bytes is no longer grown by doubling, which
// copied it once more at every step and, for a line just over a power of
// two, left a buffer twice its size (a 256 MiB result: a 512 MiB buffer
// and the 256 MiB one it was copied from, both live during the copy). It
// is read into fixed-size chunks taken from a pool shared by all Readers,
// and joined once, when its newline arrives, into a buffer of its exact
// length. The join is the one copy left; bytes.Join does not zero the
// buffer it fills, and pooled chunks need no zeroing either, so a stream
// of large results no longer clears each new buffer before reading into
// it.

// chunkSize is the size of a pooled chunk: a few hundred reads of a
// 64 KiB pipe fill one, and a chunk partly filled at the line's end
// wastes at most this much until the pool drops it.
const chunkSize = 1 << 20

// chunkAfter is the line length past which readLong reads into chunks;
// chunkUse is how much of each chunk it uses. Tests lower both to run
// the chunked path on small input.
var (
	chunkAfter = keepFrameBuffer
	chunkUse   = chunkSize
)

// chunks holds the chunks of Readers between long lines. The pool lets
// them go after two collections, so a burst of large lines does not pin
// their memory for long.
var chunks = sync.Pool{New: func() any { return new([chunkSize]byte) }}

// nextChunk makes room for a read of at least readBufferSize: a request
// that size goes past the read buffer straight to the source (readLong's
// reads must, so that the buffer stays empty), hence a chunk with less
// room left is left partly filled and a fresh one started.
func (r *Reader) nextChunk() *[]byte {
	if n := len(r.chunks); n > 0 && cap(r.chunks[n-1])-len(r.chunks[n-1]) >= readBufferSize {
		return &r.chunks[n-1]
	}
	c := chunks.Get().(*[chunkSize]byte)
	r.owned = append(r.owned, c)
	r.chunks = append(r.chunks, c[:0:chunkUse])
	return &r.chunks[len(r.chunks)-1]
}

// chunked is the number of bytes of the line held in chunks.
func (r *Reader) chunked() int {
	n := 0
	for _, c := range r.chunks {
		n += len(c)
	}
	return n
}

// lastByte is the last byte of the line read so far, which is not empty.
func (r *Reader) lastByte() byte {
	for i := len(r.chunks) - 1; i >= 0; i-- {
		if c := r.chunks[i]; len(c) > 0 {
			return c[len(c)-1]
		}
	}
	return r.frame[len(r.frame)-1]
}

// joinChunks makes r.frame the line so far in one buffer of its exact
// length (when it went on into chunks) and gives the chunks back.
func (r *Reader) joinChunks() {
	if len(r.chunks) == 0 {
		return
	}
	parts := append(make([][]byte, 0, len(r.chunks)+1), r.frame)
	r.frame = bytes.Join(append(parts, r.chunks...), nil)
	r.dropChunks()
}

// dropChunks gives the chunks back to the pool. What they hold is never
// read again: a chunk is only read up to what the next read into it
// fills.
func (r *Reader) dropChunks() {
	for _, c := range r.owned {
		chunks.Put(c)
	}
	clear(r.owned)
	clear(r.chunks)
	r.owned, r.chunks = r.owned[:0], r.chunks[:0]
}
