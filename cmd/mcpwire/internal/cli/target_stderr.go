package cli

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Limits of what is kept of a stdio server's stderr for error messages.
const (
	tailBytes = 8 << 10
	tailLines = 10
)

// tail keeps the end of a server's stderr so a connection failure can show
// why the server gave up. It is written by the transport's stderr drain
// and read after a failure, so it is safe for concurrent use.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func newTail() *tail { return &tail{} }

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - tailBytes; over > 0 {
		// The limit may fall inside a character: its last bytes go too,
		// else they would show as bytes that are not UTF-8.
		for n := 0; n < utf8.UTFMax-1 && over < len(t.buf) && !utf8.RuneStart(t.buf[over]); n++ {
			over++
		}
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String returns the last tailLines non-empty lines.
func (t *tail) String() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	s := string(t.buf)
	t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, "\r \t"); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	return strings.Join(lines, "\n")
}

// multiWriter writes to every w, ignoring a failing screen so that the tail
// is still kept.
func multiWriter(ws ...io.Writer) io.Writer { return teeWriter(ws) }

type teeWriter []io.Writer

func (t teeWriter) Write(p []byte) (int, error) {
	for _, w := range t {
		_, _ = w.Write(p)
	}
	return len(p), nil
}
