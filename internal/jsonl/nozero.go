package jsonl

import (
	"strings"
	"unsafe"
)

// makeNoZero returns an empty slice with a capacity of n bytes whose
// memory is not cleared first. A long line's buffer is filled by reads
// before any of it is looked at, so clearing it is wasted work: for a
// 16 MB result, make's clearing of a buffer the heap had used before was
// 15 % of the client's CPU (bench/NOTES.md, the fifteenth round).
//
// strings.Builder is the one standard way to such memory (it grows into
// memory it does not clear, as bytes.Join does): its buffer, once the
// Builder is dropped, is a []byte like any other. The byte written makes
// the String's data the buffer's start, whatever an empty string's is.
func makeNoZero(n int) []byte {
	var sb strings.Builder
	sb.Grow(n)
	sb.WriteByte(0)
	s := sb.String()
	return unsafe.Slice(unsafe.StringData(s), n)[:0]
}
