package mcp

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// A text result of 16 MB was decoded into a fresh string: a copy of the
// whole message into fresh memory (its page faults included), and as much
// memory again while the message is alive, which the text keeps anyway
// (bench/NOTES.md, the eleventh round). When the result is the client's
// own (decodeResult's checked), the texts are unescaped in place, each
// no longer than it was, and become strings over the result's bytes,
// which nothing writes to afterwards.

// textSpan is a text member's string content in the result, b[start:end],
// for the block'th content block.
type textSpan struct {
	block, start, end int
}

// textSpan checks the string that comes next as text would, without
// decoding it, and notes where it is.
func (d *scanner) textSpan(block int) bool {
	if !d.consume('"') {
		return false
	}
	start := d.i
	j, ok := checkedStringEnd(d.b, start)
	if !ok || !utf8.Valid(d.b[start:j]) {
		return false
	}
	t := textSpan{block: block, start: start, end: j}
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
// b[i], in a result the codec checked or one that fillTexts checks
// (checking): jsonscan.StringEnd, which crosses the text from quote to
// quote. The codec's check of the frame walked every escape already, and
// unescapeInPlace decodes all of them, \u included, so this walk no
// longer steps from backslash to backslash to count them and to decline a
// \u (bench/NOTES.md, the fifteenth round). On input that was not checked
// it may accept what the codec would refuse; it never reads past b, and
// ok is false for a string without its end.
func checkedStringEnd(b []byte, i int) (end int, ok bool) {
	return jsonscan.StringEnd(b, i)
}

// fillTexts unescapes the noted texts in place and sets each block's Text
// to a string over it. Only called once the whole result is accepted. It
// reports false when, checking, a text was not valid (refused).
func (d *scanner) fillTexts(blocks []Content) bool {
	if d.noted > 0 && !d.fillText(blocks, d.first) {
		return false
	}
	for i, t := range d.more {
		if !d.fillText(blocks, t) {
			d.spoil(d.first)
			for _, u := range d.more[:i] {
				d.spoil(u)
			}
			return false
		}
	}
	return true
}

func (d *scanner) fillText(blocks []Content, t textSpan) bool {
	b := d.b[t.start:t.end]
	n := len(b)
	if d.checking {
		m, ok := unescapeInPlace(b, true)
		if !ok {
			d.refused = true
			d.spoil(textSpan{start: t.start, end: t.start + m})
			return false
		}
		n = m
	} else if k := bytes.IndexByte(b, '\\'); k >= 0 {
		m, _ := unescapeInPlace(b[k:], false)
		n = k + m
	}
	if n > 0 {
		blocks[t.block].Text = unsafe.String(&b[0], n)
	}
	return true
}

// spoil overwrites a text that was unescaped, or the part of one that
// was, with plain content of the same length, when a text after it turned
// out not to be valid: the result, as it was received, then has its first
// fault where it had it, with valid JSON before it, for the codec to say
// what the fault is (latecheck.Params.Refuse).
func (d *scanner) spoil(t textSpan) {
	for i := t.start; i < t.end; i++ {
		d.b[i] = ' '
	}
}

// unescapeInPlace decodes the escapes of b (a string's content) into b's
// start and returns the decoded length; the output never overtakes the
// input (no escape decodes to more bytes than it takes), so copy's forward
// moves are safe. A \u escape decodes as encoding/json decodes it: a
// surrogate pair to its rune, any other surrogate to U+FFFD.
//
// With check, b was not checked by the codec, and it is here, in the same
// pass: a control character or a backslash that begins no escape ends it
// with ok false, and n is then the index from which b is as it came (b
// before it may have been written to). Without check, b is one the codec
// checked; on other input it never reads past b: a backslash with nothing
// after it is dropped, and a malformed \u or an unknown escape gives the
// byte after the backslash.
func unescapeInPlace(b []byte, check bool) (n int, ok bool) {
	w := 0
	for r := 0; r < len(b); {
		k := bytes.IndexByte(b[r:], '\\')
		if k < 0 {
			k = len(b) - r
		}
		k += r
		if check && jsonscan.HasControl(b[r:k]) {
			return r, false
		}
		if w != r {
			copy(b[w:], b[r:k])
		}
		w += k - r
		if k+1 >= len(b) {
			if check && k < len(b) {
				return k, false // a backslash that ends the string
			}
			break
		}
		if b[k+1] == 'u' {
			if c, used := unescapeU(b[k:]); used > 0 {
				w += utf8.EncodeRune(b[w:], c)
				r = k + used
				continue
			}
		}
		c := unescaped(b[k+1])
		if c == 0 {
			if check {
				return k, false
			}
			c = b[k+1]
		}
		b[w] = c
		w++
		r = k + 2
	}
	return w, true
}

// unescapeU decodes the \u escape that b starts with, and a second one
// after it when the first is a surrogate, as encoding/json does; used is
// the bytes taken, 0 when b does not start with \u and four hex digits.
func unescapeU(b []byte) (c rune, used int) {
	c = hex4(b)
	if c < 0 {
		return 0, 0
	}
	if !utf16.IsSurrogate(c) {
		return c, 6
	}
	if d := utf16.DecodeRune(c, hex4(b[6:])); d != unicode.ReplacementChar {
		return d, 12
	}
	return unicode.ReplacementChar, 6
}

// hex4 is the value of a \u escape at b's start (\u and four hex
// digits), or -1.
func hex4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var c rune
	for _, h := range b[2:6] {
		switch {
		case '0' <= h && h <= '9':
			h -= '0'
		case 'a' <= h && h <= 'f':
			h -= 'a' - 10
		case 'A' <= h && h <= 'F':
			h -= 'A' - 10
		default:
			return -1
		}
		c = c<<4 | rune(h)
	}
	return c
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
