package mcp

import (
	"encoding/json"
	"testing"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// plainRunStringEnd is the walk checkedStringEnd replaced: it stops at
// every quote, backslash and control character.
func plainRunStringEnd(b []byte, j int) (end, escapes int, ok bool) {
	for {
		j = jsonscan.PlainRun(b, j)
		if j >= len(b) || b[j] < 0x20 {
			return 0, 0, false
		}
		if b[j] == '"' {
			return j, escapes, true
		}
		if j+1 >= len(b) || unescaped(b[j+1]) == 0 {
			return 0, 0, false
		}
		escapes++
		j += 2
	}
}

// On a string the codec would accept, checkedStringEnd finds the end and
// the escapes the walk found; on any input it stays inside it.
func FuzzCheckedStringEnd(f *testing.F) {
	for _, s := range []string{
		`"plain"`, `"a\nb\"c\\"`, `"\\\""`, `"x\u0041"`, `"tab	in"`, `"open`, `"\`, `"a\"`,
		`"` + string(jsonTextSample) + `"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			b = append([]byte{'"'}, b...)
		}
		end, escapes, ok := checkedStringEnd(b, 1)
		if ok && (end < 1 || end >= len(b) || b[end] != '"') {
			t.Fatalf("%q: end %d is not a quote", b, end)
		}
		// Only a string the codec accepts (what follows it is not
		// looked at): then the two agree, whichever one accepted it.
		wantEnd, wantEscapes, wantOK := plainRunStringEnd(b, 1)
		if wantOK && json.Valid(b[:wantEnd+1]) || ok && json.Valid(b[:end+1]) {
			if ok != wantOK || end != wantEnd || escapes != wantEscapes {
				t.Fatalf("%q: end %d, %d escapes, %v; the walk: %d, %d, %v", b, end, escapes, ok, wantEnd, wantEscapes, wantOK)
			}
		}
	})
}

var jsonTextSample = []byte(`The quick brown fox jumps over the lazy dog.\n\"quoted\" \\ back\/slash\t\r\b\f`)
