package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// jsonForms is v followed by the other ways a JSON encoder may write it
// inside a string: a server that echoes a secret in a JSON reply, which
// --json prints as the server wrote it, escapes a quote or backslash in
// it, Go's encoders write <, > and & as \u003c and the like, and Python's
// json.dumps writes every non-ASCII character as \uXXXX. Each distinct
// form is masked. (A server that escapes every character on purpose is
// not what this defends against: it holds the secret itself.)
func jsonForms(v string) []string {
	forms := []string{v}
	add := func(f string) {
		for _, have := range forms {
			if have == f {
				return
			}
		}
		forms = append(forms, f)
	}
	var plain strings.Builder
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) == nil {
		add(quotedBody(plain.String()))
	}
	if html, err := json.Marshal(v); err == nil {
		add(quotedBody(string(html)))
	}
	add(asciiJSON(quotedBody(plain.String())))
	return forms
}

// quotedBody is an encoded JSON string without its quotes (and the
// encoder's newline).
func quotedBody(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`)
}

// asciiJSON writes the non-ASCII characters of an encoded JSON string's
// body as \uXXXX escapes (UTF-16 surrogate pairs above the BMP), as
// encoders that keep their output ASCII do.
func asciiJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
