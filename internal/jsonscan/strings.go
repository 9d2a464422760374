package jsonscan

import (
	"bytes"
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
)

// MapStrings returns b, JSON already validated, with every string in it
// (object keys too) whose decoded text f changes written again with f's
// answer; all else stays as it was, byte for byte: member order,
// numbers, white space, the escapes of the other strings. changed says
// whether f changed any; when it changed none, b itself comes back.
//
// Masking a secret in what a peer sent takes the decoded text: the peer
// may escape any character (\u0070 for p, \/ for /), so that the bytes
// of the secret, or of the form an encoder of ours writes, need not
// stand in b at all.
func MapStrings(b []byte, f func(string) string) (_ []byte, changed bool) {
	var out []byte
	done := 0 // b[:done] is in out
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			break
		}
		start := i + j
		end := SkipString(b, start)
		i = end
		lit := b[start:end]
		if len(lit) < 2 || lit[len(lit)-1] != '"' {
			break // not JSON: the end of b, unterminated
		}
		var s string
		if bytes.IndexByte(lit, '\\') < 0 {
			s = string(lit[1 : len(lit)-1]) // no escapes: the text itself
		} else if json.Unmarshal(lit, &s) != nil {
			continue
		}
		if r := f(s); r != s {
			out = append(out, b[done:start]...)
			out = jsonenc.AppendString(out, r)
			done = end
		}
	}
	if out == nil {
		return b, false
	}
	return append(out, b[done:]...), true
}
