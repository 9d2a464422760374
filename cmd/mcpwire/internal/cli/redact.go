package cli

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// minSecretLen is the shortest value Redact masks. Masking "1" or "on"
// would garble every message while protecting nothing; mcpwire's own
// messages never contain a secret at all, so this is the second line of
// defence, against text from transports and servers.
const minSecretLen = 6

// secretSet is the registered secrets. Tokens are registered while
// commands run (a refresh, a sign-in, the manager connecting servers in
// parallel) and read by every write, so it has a lock of its own; the
// IOStreams holds a pointer, and Main's copy shares it.
type secretSet struct {
	mu    sync.RWMutex
	list  []string // the values as registered
	forms []string // each value and the ways a JSON encoder writes it
	bytes [][]byte // forms as bytes, for the writers' search
}

// AddSecret registers a value (a bearer token, a header value, an env
// value, a token from the store) that must never reach the user's screen.
// Safe for concurrent use, once Main has set the streams up (before that
// the streams are one goroutine's).
func (s *IOStreams) AddSecret(v string) {
	if len(v) < minSecretLen {
		return
	}
	if s.secrets == nil {
		s.secrets = &secretSet{}
	}
	if !s.secrets.add(v) {
		return
	}
	// A recording opened earlier scrubs it from the messages still to come.
	s.recording.addSecret(v)
	if s.wireTap != nil {
		s.wireTap.AddSecrets(v)
	}
}

// add registers v once, and reports whether it was new.
func (set *secretSet) add(v string) bool {
	set.mu.Lock()
	defer set.mu.Unlock()
	for _, have := range set.list {
		if have == v {
			return false
		}
	}
	set.list = append(set.list, v)
	for _, f := range jsonForms(v) {
		set.forms = append(set.forms, f)
		set.bytes = append(set.bytes, []byte(f))
	}
	return true
}

// Redact replaces every registered secret in text with "***".
func (s *IOStreams) Redact(text string) string {
	if s.secrets == nil {
		return text
	}
	s.secrets.mu.RLock()
	defer s.secrets.mu.RUnlock()
	for _, v := range s.secrets.forms {
		text = strings.ReplaceAll(text, v, "***")
	}
	return text
}

// startCut returns how many bytes at the end of b could begin a
// registered secret that b does not finish (0 when none could): a writer
// that sends text on in pieces holds those back until the rest comes, so
// that the secret reaches redactWriter whole. s may be nil.
func (s *secretSet) startCut(b []byte) int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	longest := 0
	for _, v := range s.bytes {
		for n := min(len(v)-1, len(b)); n > longest; n-- {
			if bytes.HasSuffix(b, v[:n]) {
				longest = n
				break
			}
		}
	}
	return longest
}

// redactWriter masks the registered secrets in everything written to w:
// a server that echoes a token back (in a tool result, an error, a JSON
// reply printed with --json) must not get it onto the screen or into a
// log. Each Write is masked on its own; mcpwire writes a value in one
// Write (and Main's lockedWriter keeps writes whole). A write that holds
// no secret passes through as it is, without a copy.
type redactWriter struct {
	w       io.Writer
	secrets *secretSet
}

func (r *redactWriter) Write(p []byte) (int, error) {
	r.secrets.mu.RLock()
	found := false
	for _, v := range r.secrets.bytes {
		if bytes.Contains(p, v) {
			found = true
			break
		}
	}
	if !found {
		r.secrets.mu.RUnlock()
		return r.w.Write(p)
	}
	masked := string(p)
	for _, v := range r.secrets.forms {
		masked = strings.ReplaceAll(masked, v, "***")
	}
	r.secrets.mu.RUnlock()
	if _, err := io.WriteString(r.w, masked); err != nil {
		return 0, err
	}
	return len(p), nil
}
