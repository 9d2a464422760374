// Package jsonscan finds where JSON values end, for the decoders that walk
// JSON already validated (by Valid, or json.Valid) to pick out a few
// members without reflection. The skipping functions report no syntax
// errors: on invalid input they stop at the end of the slice rather than
// panic, and what they return then means nothing. Valid is the check that
// comes first, with encoding/json's answer at several times its speed.
package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// SkipSpace returns the index of the first byte at or after i that is
// not JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the index just past the string starting at b[i].
func SkipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		if i = PlainRun(b, i); i == len(b) {
			break
		}
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return min(i, len(b)) // an escape as the last byte steps past it
}

// SkipValue returns the index just past the value starting at b[i].
func SkipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = SkipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// SkipQuoted is SkipValue for a value that is not known to be valid and
// may hold long strings: a string is crossed from quote to quote by
// bytes.IndexByte, a quote ending it when the run of backslashes before
// it is even, rather than stopping at every escape as SkipString does
// (about 3 ms against 0.5 on the bench's 16 MB text, its \n every 87
// bytes). On valid input it returns what SkipValue returns; on any input
// it returns an index within b, and i when nothing could be a value.
func SkipQuoted(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipQuotedString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipQuotedString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	return SkipValue(b, i)
}

// skipQuotedString returns the index just past the string starting at
// b[i], or len(b) when it has no end.
func skipQuotedString(b []byte, i int) int {
	if end, ok := StringEnd(b, i+1); ok {
		return end + 1
	}
	return len(b)
}

// StringEnd finds the quote that ends the string whose content starts at
// b[i]: bytes.IndexByte finds each quote, and a quote ends the string when
// the run of backslashes just before it is even (pairs of \\), escaped
// when it is odd. That is exact for a valid string, whose every backslash
// begins an escape; on other input it finds some quote or none (ok false),
// never reading past b. It walks nothing but the quotes.
func StringEnd(b []byte, i int) (end int, ok bool) {
	// Most strings of a document are short (member names, words, names
	// of types): the first word often holds the closing quote, with no
	// backslash before it, found without a call to IndexByte, which on
	// a page of a thousand tools was most of the walk.
	if i >= 0 && i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		quote := w ^ '"'*ones
		quote = (quote - ones) &^ quote & highs
		slash := w ^ '\\'*ones
		slash = (slash - ones) &^ slash & highs
		// A borrow can flag a byte above a true match, never below
		// one: each lowest flag is a true quote and a true backslash.
		if quote != 0 && (slash == 0 || bits.TrailingZeros64(slash) > bits.TrailingZeros64(quote)) {
			return i + bits.TrailingZeros64(quote)/8, true
		}
	}
	for j := i; ; {
		q := bytes.IndexByte(b[j:], '"')
		if q < 0 {
			return 0, false
		}
		q += j
		k := q
		for k > i && b[k-1] == '\\' {
			k--
		}
		if (q-k)%2 == 0 {
			return q, true
		}
		j = q + 1
	}
}
