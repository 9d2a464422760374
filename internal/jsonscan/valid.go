package jsonscan

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// maxDepth is encoding/json's nesting limit: Valid refuses what json.Valid
// refuses, a value nested deeper than this included.
const maxDepth = 10000

// stringStop marks the bytes that end a run of plain string content: the
// closing quote, an escape, and the control characters JSON forbids there.
var stringStop = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = true
	}
	t['"'] = true
	t['\\'] = true
	return t
}()

// Valid reports whether b is one JSON value, with optional white space
// around it: the same answer as encoding/json's Valid (a fuzz test holds
// the two together), several times faster. It walks strings eight bytes at
// a time, which is where a large message's bytes are, and allocates only
// for nesting deeper than 64. Like json.Valid it
// does not check that strings are UTF-8.
func Valid(b []byte) bool {
	end, ok := ValidValue(b, SkipSpace(b, 0))
	return ok && SkipSpace(b, end) == len(b)
}

// ValidValue checks the one JSON value that starts at b[i], with Valid's
// rules, and returns the index just past it; what follows is not looked
// at. A decoder that picks members out of a document uses it to check,
// and step over, each member it keeps raw or does not want.
func ValidValue(b []byte, i int) (end int, ok bool) {
	return validValue(b, i, maxDepth)
}

// ValidMember is ValidValue for a value that is itself depth containers
// deep in the document being checked (a member of the top object is 1
// deep): the nesting limit applies to the document, as for Valid.
func ValidMember(b []byte, i, depth int) (end int, ok bool) {
	return validValue(b, i, maxDepth-depth)
}

// validValue is ValidValue with nesting allowed up to limit.
func validValue(b []byte, i, limit int) (end int, ok bool) {
	var open nesting // the containers we are inside
	for {
		// A value starts at b[i].
		if i >= len(b) {
			return i, false
		}
		switch c := b[i]; c {
		case '{', '[':
			if open.depth >= limit {
				return i, false
			}
			open.push(c == '{')
			i = SkipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				open.pop()
				i++
				ok = true
				break
			}
			if c == '{' {
				if i, ok = validKey(b, i); !ok {
					return i, false
				}
			}
			continue
		case '"':
			i, ok = validString(b, i)
		case 't':
			i, ok = literal(b, i, "true")
		case 'f':
			i, ok = literal(b, i, "false")
		case 'n':
			i, ok = literal(b, i, "null")
		default:
			i, ok = validNumber(b, i)
		}
		if !ok {
			return i, false
		}
		// A value ended at b[i]: close containers, or find the next value.
		for {
			if open.depth == 0 {
				return i, true
			}
			i = SkipSpace(b, i)
			if i >= len(b) {
				return i, false
			}
			inObject := open.inObject()
			if (inObject && b[i] == '}') || (!inObject && b[i] == ']') {
				open.pop()
				i++
				continue
			}
			if b[i] != ',' {
				return i, false
			}
			i = SkipSpace(b, i+1)
			if inObject {
				if i, ok = validKey(b, i); !ok {
					return i, false
				}
			}
			break
		}
	}
}

// nesting is a stack of containers, object or array, kept as bits for the
// first 64 levels so that checking a usual message allocates nothing.
type nesting struct {
	depth   int
	objects uint64 // bit d: the container at depth d+1 is an object
	deeper  []bool // the containers past the first 64
}

func (n *nesting) push(object bool) {
	if n.depth < 64 {
		if object {
			n.objects |= 1 << n.depth
		} else {
			n.objects &^= 1 << n.depth
		}
	} else {
		n.deeper = append(n.deeper[:n.depth-64], object)
	}
	n.depth++
}

func (n *nesting) pop() { n.depth-- }

func (n *nesting) inObject() bool {
	if d := n.depth - 1; d < 64 {
		return n.objects&(1<<d) != 0
	}
	return n.deeper[n.depth-65]
}

// validKey checks a member's name and its colon, returning the index of
// the member's value.
func validKey(b []byte, i int) (int, bool) {
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	i, ok := validString(b, i)
	if !ok {
		return i, false
	}
	i = SkipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	return SkipSpace(b, i+1), true
}

// validString checks the string starting at b[i] and returns the index
// just past it.
func validString(b []byte, i int) (int, bool) {
	i++
	start := i
	for {
		i = PlainRun(b, i)
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case '"':
			return i + 1, true
		case '\\':
			if i-start >= longString {
				return validLongString(b, i)
			}
			n := escapeLen(b, i)
			if n == 0 {
				return i, false
			}
			i += n
		default: // a control character
			return i, false
		}
	}
}

// longString is the length of plain content past which validString
// goes on by validLongString: a long text, where the escapes are far
// apart.
const longString = 64

// validLongString checks the rest of a long string from the backslash at
// b[i], as validString does. A text's escapes are tens of bytes apart
// (a line's \n), and plainRun, which stops at all three kinds of stop at
// once, cost about one cycle a byte on the bench's 16 MB result
// (bench/NOTES.md, the fifteenth round). Here bytes.IndexByte, which
// scans many bytes an instruction, finds the quotes and the backslashes,
// and the bytes between are only checked for control characters, whose
// flags are gathered word by word with no branch until the run's end.
func validLongString(b []byte, i int) (int, bool) {
	q := -1 // the next quote at or after i, once found
	for {
		// b[i] is a backslash.
		n := escapeLen(b, i)
		if n == 0 {
			return i, false
		}
		i += n
		if q < i {
			k := bytes.IndexByte(b[i:], '"')
			if k < 0 {
				return len(b), false
			}
			q = i + k
		}
		end := q
		if k := bytes.IndexByte(b[i:q], '\\'); k >= 0 {
			end = i + k
		}
		if HasControl(b[i:end]) {
			return i, false
		}
		if end == q {
			return q + 1, true
		}
		i = end
	}
}

// escapeLen is the length of the valid escape at b[i] (a backslash), 0
// when it is not one.
func escapeLen(b []byte, i int) int {
	if i+1 >= len(b) {
		return 0
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if i+6 > len(b) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
			return 0
		}
		return 6
	}
	return 0
}

// HasControl reports whether b holds a byte below 0x20. A word flags such
// a byte exactly: (w - 0x20 in each byte) &^ w sets a byte's high bit for
// a byte below 0x20, and a borrow can flag a byte above a true one, never a
// word without one. Two words a turn, and the tail as the last word of b
// (which may overlap words already looked at) rather than byte by byte:
// the runs between a long text's escapes are a few words each, and their
// tails were half of this function's time (bench/NOTES.md, the
// twenty-second round).
func HasControl(b []byte) bool {
	if len(b) < 8 {
		for _, c := range b {
			if c < 0x20 {
				return true
			}
		}
		return false
	}
	last := binary.LittleEndian.Uint64(b[len(b)-8:])
	flags := (last - 0x20*ones) &^ last
	for len(b) >= 16 {
		w := binary.LittleEndian.Uint64(b)
		v := binary.LittleEndian.Uint64(b[8:])
		flags |= (w-0x20*ones)&^w | (v-0x20*ones)&^v
		b = b[16:]
	}
	if len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		flags |= (w - 0x20*ones) &^ w
	}
	return flags&highs != 0
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// PlainRun returns the index of the first byte at or after i that ends
// plain string content, or len(b): a quote, a backslash or a control
// character (below 0x20). Eight bytes at a time it asks whether any is one
// of those, and the word that holds one says which is first: most strings
// of a message are names and keys shorter than a word or two, so finding
// the end byte by byte inside its word was a third of this function's
// time. Only the last few bytes of b, too few for a word, are looked at
// one at a time. It is how the long runs of a string's content are
// crossed.
func PlainRun(b []byte, i int) int {
	end, _ := plainRun(b, i)
	return end
}

// PlainRunASCII is PlainRun that also reports whether every byte it
// crossed is ASCII: a decoder that makes strings of names and
// descriptions then needs no second pass (utf8.Valid) over most of them.
// It may report false for an ASCII run that ends inside a word with
// other bytes after the end; the caller then checks, as it would anyway.
func PlainRunASCII(b []byte, i int) (end int, ascii bool) {
	end, high := plainRun(b, i)
	return end, high == 0
}

// plainRun is PlainRun; high is non-zero when a byte it looked at (the
// word holding the end included) is 0x80 or above.
func plainRun(b []byte, i int) (end int, high uint64) {
	for i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		control := (w - 0x20*ones) &^ w
		quote := w ^ '"'*ones
		quote = (quote - ones) &^ quote
		slash := w ^ '\\'*ones
		slash = (slash - ones) &^ slash
		high |= w & highs
		if stop := (control | quote | slash) & highs; stop != 0 {
			// A borrow can flag a byte above a true stop, never one
			// below it, so the lowest flag is the first stop.
			return i + bits.TrailingZeros64(stop)/8, high
		}
		i += 8
	}
	for i < len(b) && !stringStop[b[i]] {
		high |= uint64(b[i] & 0x80)
		i++
	}
	return i, high
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func literal(b []byte, i int, word string) (int, bool) {
	if len(b)-i < len(word) || string(b[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}

// validNumber checks the number starting at b[i]: an optional minus, an
// integer part without leading zeros, an optional fraction and exponent.
// What follows it is the caller's to check.
func validNumber(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digits(b, i+1)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		start := i + 1
		if i = digits(b, start); i == start {
			return i, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		start := i
		if i = digits(b, start); i == start {
			return i, false
		}
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
