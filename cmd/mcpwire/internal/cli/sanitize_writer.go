package cli

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// sanitizeWriter passes a server's raw output (its live stderr, with
// --verbose) through Sanitize on its way to the terminal, each line
// after a prefix ("[NAME] "), so that none passes for one of mcpwire's
// own. It streams: a line is written as its bytes come, its prefix
// before its first byte. Each write is
// sanitized on its own: an escape sequence cut in two by a write boundary
// loses its ESC either way, so nothing of it reaches the terminal as
// control. A UTF-8 character cut in two is held back until its end comes,
// so that it is not shown as bytes that are not UTF-8.
type sanitizeWriter struct {
	w      io.Writer
	prefix string

	mu      sync.Mutex
	pending []byte // the start of a character the last write cut
	midLine bool   // the last write ended inside a line: its prefix is out
}

func newSanitizeWriter(w io.Writer, prefix string) *sanitizeWriter {
	return &sanitizeWriter{w: w, prefix: prefix}
}

func (s *sanitizeWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := append(s.pending, p...)
	s.pending = nil
	if cut := incompleteTail(b); cut > 0 {
		s.pending = append([]byte(nil), b[len(b)-cut:]...)
		b = b[:len(b)-cut]
	}
	if _, err := io.WriteString(s.w, s.prefixed(Sanitize(string(b)))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// prefixed puts the prefix before each line that text starts. s.mu is
// held.
func (s *sanitizeWriter) prefixed(text string) string {
	if text == "" {
		return ""
	}
	var b strings.Builder
	for line := range strings.SplitAfterSeq(text, "\n") {
		if line == "" {
			continue // after the last newline: the next line may never come
		}
		if !s.midLine {
			b.WriteString(s.prefix)
		}
		b.WriteString(line)
		s.midLine = !strings.HasSuffix(line, "\n")
	}
	return b.String()
}

// incompleteTail returns how many bytes at the end of b start a UTF-8
// character that b does not finish (0 when none do).
func incompleteTail(b []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(b); n++ {
		c := b[len(b)-n]
		if c < 0x80 {
			return 0 // ASCII: nothing is cut
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-n:]) {
				return n
			}
			return 0
		}
	}
	return 0
}
