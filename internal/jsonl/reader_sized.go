package jsonl

import "bytes"

// A stream of large results tends to repeat their size. A line past
// chunkAfter went on in pooled chunks, joined at its newline into a
// buffer of its exact length: the whole line copied once more, into fresh
// memory, its page faults included (a third of the client's CPU for a
// 16 MB result, bench/NOTES.md, the fourteenth round). When the last long
// line was longer than what the buffer holds, the line goes on in one
// buffer sized for that one (a sixteenth more), into which the reads go
// straight: the first chunkAfter bytes are copied, not the whole line.
// A line longer than that still goes on in chunks past it and is joined as
// before, so a growing sequence (the survival probe's) costs what it did;
// one much shorter is copied out (fitSized), so that a buffer given up
// with the frame (GiveUpFrame) is not mostly empty.

// sizedRoom is the room a line gets after its first chunkAfter bytes when
// the last long line was longer: that line's length, a sixteenth more,
// and a read's worth, less what the frame holds; never past the limit.
func (r *Reader) sizedRoom() int {
	want := r.lastLong + r.lastLong/16 + minLongRead
	if r.MaxFrameSize > 0 {
		// The line and its CRLF; one byte more tells a longer line.
		want = min(want, r.MaxFrameSize+3)
	}
	return max(minLongRead, want-len(r.frame))
}

// fitSized returns line, copied with the frame into a buffer of the
// frame's length if the frame was sized for it and fills less than half of
// that buffer. It runs wherever the line ended (in readLong, or in readLine
// after a read deadline cut it short), before the frame is given up.
func (r *Reader) fitSized(line []byte) []byte {
	if !r.sized || !r.assembled {
		return line
	}
	r.sized = false
	if 2*len(r.frame) < cap(r.frame) {
		r.frame = bytes.Clone(r.frame)
		return r.frame[:len(line)]
	}
	return line
}
