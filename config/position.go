package config

import (
	"sort"
	"unicode/utf8"
)

// lineIndex turns byte offsets of one document into 1-based line:column
// positions, as editors show them (the column counts characters, not
// bytes, so a name with an accent does not shift the caret).
type lineIndex struct {
	doc    []byte
	starts []int // offset of the first byte of each line
}

func newLineIndex(doc []byte) *lineIndex {
	starts := []int{0}
	for i, c := range doc {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lineIndex{doc: doc, starts: starts}
}

// position returns the line and column of the byte at off. An offset past
// the end is clamped to the end, so "unexpected end of input" points just
// after the last character.
func (x *lineIndex) position(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > len(x.doc) {
		off = len(x.doc)
	}
	// The last line start <= off.
	l := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > off }) - 1
	return l + 1, utf8.RuneCount(x.doc[x.starts[l]:off]) + 1
}
