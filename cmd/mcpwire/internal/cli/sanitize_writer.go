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
	// secrets, when set, are the values to mask: the start of one that a
	// write ends with is held back until its end comes (see startCut).
	secrets *secretSet

	mu      sync.Mutex
	pending []byte // the start of a character or a secret the last write cut
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
	if cut := max(incompleteTail(b), s.secrets.startCut(b)); cut > 0 {
		s.pending = append([]byte(nil), b[len(b)-cut:]...)
		b = b[:len(b)-cut]
	}
	text := Sanitize(string(b))
	if text == "" {
		return len(p), nil
	}
	if lw, ok := s.w.(*lockedWriter); ok {
		if err := s.writeShared(lw, text); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	if _, err := io.WriteString(s.w, s.prefixed(text)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeShared writes text to the stream that mcpwire's own lines share.
// If anything else was written since this stream's line was left open,
// that line has been ended (see lockedWriter), so text starts a line of
// its own, after the prefix; if another stream's line is open, it is
// ended first. s.mu is held.
func (s *sanitizeWriter) writeShared(lw *lockedWriter, text string) error {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if s.midLine && lw.open != s {
		s.midLine = false
	}
	if err := lw.breakOpenLine(s); err != nil {
		return err
	}
	if _, err := io.WriteString(lw.w, s.prefixed(text)); err != nil {
		return err
	}
	lw.open = nil
	if s.midLine {
		lw.open = s
	}
	return nil
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
