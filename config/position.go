package config

import "sort"

// positioner turns byte offsets of the JSON a docParser reads into the
// line and column a Problem names.
type positioner interface {
	position(off int) (line, col int)
}

// lineIndex turns byte offsets of one document into 1-based line:column
// positions, as editors show them: the column counts characters, not
// bytes, so a name with an accent does not shift the caret.
//
// Problems can be many and a file can be one long minified line (a big
// ~/.claude.json), so a position costs O(log lines + checkpointEvery),
// never a scan from the start of the line.
type lineIndex struct {
	doc         []byte
	starts      []int // offset of the first byte of each line
	checkpoints []int // checkpoints[k]: characters in doc[:k*checkpointEvery]
}

const checkpointEvery = 512

func newLineIndex(doc []byte) *lineIndex {
	x := &lineIndex{doc: doc, starts: []int{0}}
	chars := 0
	for i, c := range doc {
		if i%checkpointEvery == 0 {
			x.checkpoints = append(x.checkpoints, chars)
		}
		if c == '\n' {
			x.starts = append(x.starts, i+1)
		}
		if isCharStart(c) {
			chars++
		}
	}
	return x
}

// isCharStart reports whether c begins a character: it is not a UTF-8
// continuation byte. Counting these counts runes in valid UTF-8, and the
// count adds up over any split of the text.
func isCharStart(c byte) bool { return c&0xC0 != 0x80 }

// charsBefore returns the number of characters in doc[:off].
func (x *lineIndex) charsBefore(off int) int {
	k := off / checkpointEvery
	if k >= len(x.checkpoints) {
		k = len(x.checkpoints) - 1
	}
	if k < 0 {
		return 0
	}
	n := x.checkpoints[k]
	for _, c := range x.doc[k*checkpointEvery : off] {
		if isCharStart(c) {
			n++
		}
	}
	return n
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
	return l + 1, x.charsBefore(off) - x.charsBefore(x.starts[l]) + 1
}
