package ptytest

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// rows and cols are the size of the terminal Start opens. A terminal keeps
// its cursor on the screen, however far a sequence asks it to move, so
// the screen clamps moves and counts to them: a program, or the fuzzer,
// that asks for row 300,000,000 gets the last row, not as many lines.
const (
	rows = 60
	cols = 160
)

// screen replays what a program wrote the way a terminal shows it: the
// text of every line, those scrolled off the top included, after the
// cursor movements and erasures that redraw a line in place. A program
// that redraws only the cells that changed (bubbletea v2) writes a line
// in pieces; the terminal, and a person, still see the whole line.
//
// It is fed the output as it arrives, as a terminal is: replaying all of
// it again on every look costs time in the square of its length, and a
// form redrawn on every key writes a megabyte, which under -race on a
// busy machine took longer than a wait's Deadline.
type screen struct {
	lines    [][]rune
	row, col int
	last     rune // the last character written, for REP
	saved    [2]int
	// cut is the end of the output fed so far that is not applied yet:
	// an escape sequence or a character that the next read completes.
	cut []byte
}

func newScreen() *screen { return &screen{lines: [][]rune{nil}} }

// text is the text the terminal shows, lines joined by "\n". Cells never
// written or erased are left out at a line's end.
func (s *screen) text() string {
	text := make([]string, len(s.lines))
	for i, l := range s.lines {
		text[i] = string(l)
	}
	return strings.Join(text, "\n")
}

// feed applies out, the next bytes the program wrote, keeping back an
// escape sequence or a UTF-8 character that out ends in the middle of.
func (s *screen) feed(out []byte) {
	b := append(s.cut, out...)
	whole := len(b) // up to the last character that is whole
	if i := lastRuneStart(b); i >= 0 && !utf8.FullRune(b[i:]) {
		whole = i
	}
	rs := []rune(string(b[:whole]))
	used := s.apply(rs)
	s.cut = append([]byte(string(rs[used:])), b[whole:]...)
}

// lastRuneStart is where the last character of b starts (-1: b is empty).
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return len(b) - 1
}

// apply applies rs and returns how much of it it used: all but an escape
// sequence rs ends in the middle of.
func (s *screen) apply(rs []rune) int {
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\x1b':
			end, whole := s.escape(rs, i+1)
			if !whole {
				return i
			}
			i = end
		case c == '\r':
			s.col = 0
		case c == '\n':
			s.down(1)
		case c == '\b':
			s.col = max(0, s.col-1)
		case c == '\t':
			s.col = (s.col/8 + 1) * 8
		case c < ' ' || c == 0x7f:
		default:
			s.put(c)
		}
	}
	return len(rs)
}

func (s *screen) line() []rune { return s.lines[s.row] }

func (s *screen) down(n int) {
	s.row += n
	for s.row >= len(s.lines) {
		s.lines = append(s.lines, nil)
	}
}

// top is the first line on the screen (the ones above have scrolled off).
func (s *screen) top() int { return max(0, len(s.lines)-rows) }

// downOnScreen moves the cursor n rows down, stopping at the screen's last
// row (it does not scroll, as '\n' does).
func (s *screen) downOnScreen(n int) {
	s.down(max(0, min(n, s.top()+rows-1-s.row)))
}

// toRow moves the cursor to row n (from 1) of the screen.
func (s *screen) toRow(n int) {
	s.row = s.top()
	s.down(min(n, rows) - 1)
}

// toCol moves the cursor to column n (from 1), or the last column.
func (s *screen) toCol(n int) { s.col = min(n, cols) - 1 }

func (s *screen) put(c rune) {
	l := s.line()
	for len(l) <= s.col {
		l = append(l, ' ')
	}
	l[s.col] = c
	s.lines[s.row] = l
	s.col++
	s.last = c
}

// escape applies the sequence after ESC at rs[i] and returns where it
// ends, or false where rs ends before the sequence does.
func (s *screen) escape(rs []rune, i int) (int, bool) {
	if i >= len(rs) {
		return i, false
	}
	switch rs[i] {
	case '[':
		j := i + 1
		for j < len(rs) && rs[j] >= 0x30 && rs[j] <= 0x3f {
			j++
		}
		params := string(rs[i+1 : j])
		for j < len(rs) && rs[j] >= 0x20 && rs[j] <= 0x2f {
			j++
		}
		if j >= len(rs) {
			return j, false
		}
		if strings.IndexAny(params, "<=>?") < 0 && j == i+1+len([]rune(params)) {
			s.csi(rs[j], params)
		}
		return j, true
	case ']', 'P', '_', '^':
		// A string up to BEL or ST.
		for j := i + 1; j < len(rs); j++ {
			if rs[j] == '\x07' {
				return j, true
			}
			if rs[j] == '\x1b' && j+1 < len(rs) && rs[j+1] == '\\' {
				return j + 1, true
			}
		}
		return len(rs), false
	case '(', ')':
		return i + 1, i+1 < len(rs)
	case 'M': // reverse index
		s.row = max(s.top(), s.row-1)
	case '7':
		s.saved = [2]int{s.row, s.col}
	case '8':
		s.row, s.col = s.saved[0], s.saved[1]
	}
	return i, true
}

// csi applies one control sequence (the ones a line editor redraws
// with); others change no text.
func (s *screen) csi(final rune, params string) {
	ps := strings.Split(params, ";")
	n := func(k, def int) int {
		if k < len(ps) {
			if v, err := strconv.Atoi(ps[k]); err == nil && v > 0 {
				return v
			}
		}
		return def
	}
	l := s.line()
	switch final {
	case 'A':
		s.row = max(s.top(), s.row-n(0, 1))
	case 'B', 'e':
		s.downOnScreen(n(0, 1))
	case 'C', 'a':
		// Not back to the last column when a line written past it
		// (lines here do not wrap) left the cursor further right.
		s.col = max(s.col, min(s.col+n(0, 1), cols-1))
	case 'D':
		s.col = max(0, s.col-n(0, 1))
	case 'G', '`':
		s.toCol(n(0, 1))
	case 'H', 'f':
		s.toRow(n(0, 1))
		s.toCol(n(1, 1))
	case 'd':
		s.toRow(n(0, 1))
	case 'E':
		s.downOnScreen(n(0, 1))
		s.col = 0
	case 'F':
		s.row = max(s.top(), s.row-n(0, 1))
		s.col = 0
	case 'K':
		switch n(0, 0) {
		case 0:
			s.lines[s.row] = l[:min(s.col, len(l))]
		case 1:
			for k := 0; k <= s.col && k < len(l); k++ {
				l[k] = ' '
			}
		case 2:
			s.lines[s.row] = nil
		}
	case 'J':
		switch n(0, 0) {
		case 0:
			s.lines[s.row] = l[:min(s.col, len(l))]
			s.lines = s.lines[:s.row+1]
		case 2, 3:
			for k := s.top(); k < len(s.lines); k++ {
				s.lines[k] = nil
			}
		}
	case 'X':
		for k := s.col; k < s.col+n(0, 1) && k < len(l); k++ {
			l[k] = ' '
		}
	case 'P':
		if s.col < len(l) {
			s.lines[s.row] = append(l[:s.col], l[min(len(l), s.col+n(0, 1)):]...)
		}
	case '@':
		if s.col < len(l) {
			ins := []rune(strings.Repeat(" ", min(n(0, 1), cols)))
			s.lines[s.row] = append(l[:s.col], append(ins, l[s.col:]...)...)
		}
	case 'b':
		for range min(n(0, 1), rows*cols) {
			s.put(s.last)
		}
	case 'L':
		k := min(n(0, 1), rows)
		blank := make([][]rune, k)
		s.lines = append(s.lines[:s.row], append(blank, s.lines[s.row:]...)...)
	case 'M':
		end := min(len(s.lines), s.row+n(0, 1))
		s.lines = append(s.lines[:s.row], s.lines[end:]...)
		if len(s.lines) <= s.row {
			s.down(0)
		}
	}
}
