package cli

import "io"

// sanitizeWriter passes a server's raw output (its live stderr, with
// --verbose) through Sanitize on its way to the terminal. Each write is
// sanitized on its own: an escape sequence cut in two by a write boundary
// loses its ESC either way, so nothing of it reaches the terminal as
// control.
type sanitizeWriter struct{ w io.Writer }

func (s sanitizeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, Sanitize(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
