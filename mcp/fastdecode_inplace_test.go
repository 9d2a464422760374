package mcp

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// plainRunStringEnd is the walk checkedStringEnd replaced: it stops at
// every quote, backslash and control character, and steps over each
// escape the codec accepts.
func plainRunStringEnd(b []byte, j int) (end int, ok bool) {
	for {
		j = jsonscan.PlainRun(b, j)
		if j >= len(b) || b[j] < 0x20 {
			return 0, false
		}
		if b[j] == '"' {
			return j, true
		}
		switch {
		case hex4(b[j:]) >= 0:
			j += 6
		case j+1 < len(b) && unescaped(b[j+1]) != 0:
			j += 2
		default:
			return 0, false
		}
	}
}

// On a string the codec would accept, checkedStringEnd finds the end the
// walk finds; on any input it stays inside it.
func FuzzCheckedStringEnd(f *testing.F) {
	for _, s := range []string{
		`"plain"`, `"a\nb\"c\\"`, `"\\\""`, `"x\u0041"`, `"tab	in"`, `"open`, `"\`, `"a\"`,
		`"\\\\"`, `"\\u0041\""`,
		`"` + string(jsonTextSample) + `"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 || b[0] != '"' {
			b = append([]byte{'"'}, b...)
		}
		end, ok := checkedStringEnd(b, 1)
		if ok && (end < 1 || end >= len(b) || b[end] != '"') {
			t.Fatalf("%q: end %d is not a quote", b, end)
		}
		// Only a string the codec accepts (what follows it is not
		// looked at): then the two agree, whichever one accepted it.
		wantEnd, wantOK := plainRunStringEnd(b, 1)
		if wantOK && json.Valid(b[:wantEnd+1]) || ok && json.Valid(b[:end+1]) {
			if ok != wantOK || end != wantEnd {
				t.Fatalf("%q: end %d, %v; the walk: %d, %v", b, end, ok, wantEnd, wantOK)
			}
		}
	})
}

// A text with \u escapes is decoded in place too, to what encoding/json
// makes of it: surrogate pairs joined, lone or broken surrogates U+FFFD.
func TestDecodeTextResultInPlaceUnicodeEscapes(t *testing.T) {
	for _, text := range []string{
		`\u00e9`, `caf\u00E9 \u2713`, `\ud83d\ude00`, `\ud83d`, `\ude00x`, `\ud83d\u0041`,
		`\ud83dx`, `\ud83d\ud83d\ude00`, `\u0000`, `\\u0041`, `a\nb\u0022c\"`, `\u005c\u0022`,
		strings.Repeat(`line\u0020of text\n`, 1000),
	} {
		raw := []byte(`{"content":[{"type":"text","text":"` + text + `"}]}`)
		if !checkFastDecode(t, raw, inPlaceTextResult) {
			t.Errorf("%s: not taken in place", text)
		}
	}
}

// unescapeInPlace never reads or writes past its input, whatever it is
// given; on a string the codec accepts it decodes as encoding/json does.
func FuzzUnescapeInPlace(f *testing.F) {
	for _, s := range []string{`a\nb`, `\u00e9`, `\ud83d\ude00`, `\ud83d`, `\`, `\u12`, `\x`, string(jsonTextSample)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		quoted := append(append([]byte{'"'}, b...), '"')
		var want string
		valid := json.Unmarshal(quoted, &want) == nil && utf8.Valid(b)
		in := bytes.Clone(b)
		n, _ := unescapeInPlace(in, false)
		if n < 0 || n > len(b) {
			t.Fatalf("%q: decoded length %d", b, n)
		}
		if valid && string(in[:n]) != want {
			t.Fatalf("%q: decoded %q, encoding/json %q", b, in[:n], want)
		}
	})
}

var jsonTextSample = []byte(`The quick brown fox jumps over the lazy dog.\n\"quoted\" \\ back\/slash\t\r\b\f`)
