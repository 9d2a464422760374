package mcp

import (
	"bytes"
	"unicode/utf8"
	"unsafe"
)

// A text result of 16 MB was decoded into a fresh string: a copy of the
// whole message into fresh memory (its page faults included), and as much
// memory again while the message is alive, which the text keeps anyway
// (bench/NOTES.md, the eleventh round). When the result is the client's
// own (decodeResult's checked), the texts are unescaped in place, each
// no longer than it was, and become strings over the result's bytes,
// which nothing writes to afterwards.

// textSpan is a text member's string content in the result, b[start:end],
// for the block'th content block; escapes counts its backslashes.
type textSpan struct {
	block, start, end, escapes int
}

// textSpan checks the string that comes next as text would, without
// decoding it, and notes where it is.
func (d *scanner) textSpan(block int) bool {
	if !d.consume('"') {
		return false
	}
	start := d.i
	j, escapes, ok := checkedStringEnd(d.b, start)
	if !ok || !utf8.Valid(d.b[start:j]) {
		return false
	}
	t := textSpan{block: block, start: start, end: j, escapes: escapes}
	if d.noted == 0 {
		d.first = t
	} else {
		d.more = append(d.more, t)
	}
	d.noted++
	d.i = j + 1
	return true
}

// checkedStringEnd finds the end of the string whose content starts at
// b[i], in a result the codec checked (the only kind decoded in place):
// no control character can be in it, and every backslash begins an
// escape, so the end is the first quote that no backslash escapes. Two
// searches by bytes.IndexByte, one for the quote and one for each
// backslash before it, replace the word-at-a-time walk that looked for
// all three stops (jsonscan.PlainRun): the codec's own check of the frame
// is that walk already (bench/NOTES.md, the fourteenth round). It counts
// the escapes, and declines (ok false) one that text() does not decode
// (\u) or a string without its end. On input that was not checked it
// only fails to reject a control character; it never reads past b.
func checkedStringEnd(b []byte, i int) (end, escapes int, ok bool) {
	j := i
	for {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, 0, false
		}
		q += j
		for j < q {
			k := bytes.IndexByte(b[j:q], '\\')
			if k < 0 {
				j = q
				break
			}
			k += j
			// A backslash: the escapes text() decodes, and no other.
			if k+1 >= len(b) || unescaped(b[k+1]) == 0 {
				return 0, 0, false
			}
			escapes++
			j = k + 2
		}
		if j == q {
			return q, escapes, true
		}
		// The quote at q was escaped: the string goes on past it.
	}
}

// fillTexts unescapes the noted texts in place and sets each block's Text
// to a string over it. Only called once the whole result is accepted.
func (d *scanner) fillTexts(blocks []Content) {
	if d.noted > 0 {
		d.fillText(blocks, d.first)
	}
	for _, t := range d.more {
		d.fillText(blocks, t)
	}
}

func (d *scanner) fillText(blocks []Content, t textSpan) {
	n := t.end - t.start
	if t.escapes > 0 {
		n = unescapeInPlace(d.b[t.start:t.end])
	}
	if n > 0 {
		blocks[t.block].Text = unsafe.String(&d.b[t.start], n)
	}
}

// unescapeInPlace decodes the short escapes of b (checked by textSpan)
// into b's start and returns the decoded length; the output never
// overtakes the input, so copy's forward moves are safe.
func unescapeInPlace(b []byte) int {
	w := 0
	for r := 0; r < len(b); {
		k := bytes.IndexByte(b[r:], '\\')
		if k < 0 {
			w += copy(b[w:], b[r:])
			break
		}
		k += r
		w += copy(b[w:], b[r:k])
		b[w] = unescaped(b[k+1])
		w++
		r = k + 2
	}
	return w
}

// unescaped is the byte a short escape stands for, 0 for any other.
func unescaped(c byte) byte {
	switch c {
	case '"', '\\', '/':
		return c
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	}
	return 0
}
