package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestStripJSONC(t *testing.T) {
	tests := []struct {
		name, in string
		want     any // what the stripped text decodes to
	}{
		{"plain JSON", `{"a": [1, 2]}`, map[string]any{"a": []any{1.0, 2.0}}},
		{"line comment", "{\n// servers\n\"a\": 1 // one\n}", map[string]any{"a": 1.0}},
		{"line comment at end of file", "{\"a\": 1}\n// done", map[string]any{"a": 1.0}},
		{"block comment", `{/* x */"a": /* y
		z */ 1}`, map[string]any{"a": 1.0}},
		{"comment markers inside strings", `{"url": "http://x/*y*/", "c": "//no"}`, map[string]any{"url": "http://x/*y*/", "c": "//no"}},
		{"escaped quote inside string", `{"a": "say \"//hi\" /*"}`, map[string]any{"a": `say "//hi" /*`}},
		{"escaped backslash before quote", `{"a": "c:\\", "b": 2 // c
		}`, map[string]any{"a": `c:\`, "b": 2.0}},
		{"trailing comma in object", `{"a": 1,}`, map[string]any{"a": 1.0}},
		{"trailing comma in array", `{"a": [1, 2, ]}`, map[string]any{"a": []any{1.0, 2.0}}},
		{"trailing comma then comment", "{\"a\": [1, // last\n], /* end */ }", map[string]any{"a": []any{1.0}}},
		{"comma inside string kept", `{"a": ",}", "b": ",]"}`, map[string]any{"a": ",}", "b": ",]"}},
		{"byte order mark", "\xEF\xBB\xBF{\"a\": 1}", map[string]any{"a": 1.0}},
		{"CRLF line comment", "{\r\n// c\r\n\"a\": 1\r\n}", map[string]any{"a": 1.0}},
		{"slash outside comment left for the parser", `{"a": 1}`, map[string]any{"a": 1.0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := stripJSONC([]byte(tt.in))
			if err != nil {
				t.Fatalf("stripJSONC: %v", err)
			}
			if len(out) != len(tt.in) {
				t.Fatalf("length changed: %d -> %d", len(tt.in), len(out))
			}
			var got any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("stripped text is not JSON: %v\n%s", err, out)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestStripJSONCUnterminatedComment(t *testing.T) {
	in := "{\n  \"a\": 1 /* open\n}"
	_, err := stripJSONC([]byte(in))
	var se *syntaxError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *syntaxError", err)
	}
	if want := bytes.Index([]byte(in), []byte("/*")); se.Offset != want {
		t.Errorf("offset = %d, want %d", se.Offset, want)
	}
}

func TestStripJSONCKeepsInvalidJSONInvalid(t *testing.T) {
	for _, in := range []string{`{"a": 1 / 2}`, `{"a": [1,,]}`, `{"a" 1}`, `{"a": "unterminated}`} {
		out, err := stripJSONC([]byte(in))
		if err != nil {
			continue
		}
		if json.Valid(out) {
			t.Errorf("%q stripped to valid JSON %q", in, out)
		}
	}
}

func TestLinePosition(t *testing.T) {
	doc := []byte("ab\nçd\n\nx")
	x := newLineIndex(doc)
	tests := []struct{ off, line, col int }{
		{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, // the newline itself ends line 1
		{3, 2, 1}, {5, 2, 2}, // ç is two bytes, one column
		{7, 3, 1}, {8, 4, 1}, {9, 4, 2}, {100, 4, 2}, {-5, 1, 1},
	}
	for _, tt := range tests {
		if l, c := x.position(tt.off); l != tt.line || c != tt.col {
			t.Errorf("position(%d) = %d:%d, want %d:%d", tt.off, l, c, tt.line, tt.col)
		}
	}
}

// FuzzJSONC checks the stripper's contract on any input: no panic, same
// length, line breaks where they were, strings and valid JSON untouched,
// and stripping twice changes nothing more.
func FuzzJSONC(f *testing.F) {
	for _, s := range []string{
		`{"a": 1}`,
		"{\n// c\n\"a\": [1, 2,], /* b */}\n",
		`{"u": "http://x//y", "e": "\"/*"}`,
		"\xEF\xBB\xBF{}",
		"/* open",
		`"\`,
		vscodeSample,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := stripJSONC(in)
		if err != nil {
			var se *syntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset >= len(in) {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		if len(out) != len(in) {
			t.Fatalf("length %d -> %d", len(in), len(out))
		}
		for i := range in {
			if (in[i] == '\n') != (out[i] == '\n') {
				t.Fatalf("line break moved at %d", i)
			}
			if out[i] != in[i] && out[i] != ' ' {
				t.Fatalf("byte %d changed to %q, not blanked", i, out[i])
			}
		}
		if json.Valid(in) && !bytes.Equal(in, out) {
			t.Fatalf("valid JSON changed:\n%q\n%q", in, out)
		}
		// Stripping again changes nothing once the result is JSON. (Not
		// otherwise: in ",,}" only the last comma is trailing, so the
		// error in "[1,,]" stays an error.)
		if json.Valid(out) {
			if again, err := stripJSONC(out); err != nil || !bytes.Equal(again, out) {
				t.Fatalf("not idempotent: %v\n%q\n%q", err, out, again)
			}
		}
	})
}

const vscodeSample = `{
	// 💡 Inputs are prompted on first server start, then stored securely by VS Code.
	"inputs": [
		{
			"type": "promptString",
			"id": "perplexity-key",
			"description": "Perplexity API Key",
			"password": true
		}
	],
	"servers": {
		/* a local server */
		"Perplexity": {
			"type": "stdio",
			"command": "npx",
			"args": ["-y", "server-perplexity-ask"],
			"env": {
				"PERPLEXITY_API_KEY": "${input:perplexity-key}",
			},
		},
	},
}`

func TestLinePositionLongLine(t *testing.T) {
	// Positions across checkpoints on one long line, with multi-byte
	// characters straddling checkpoint boundaries, agree with counting.
	var doc []byte
	for i := 0; i < 3000; i++ {
		if i%7 == 0 {
			doc = append(doc, "é"...)
		} else {
			doc = append(doc, 'a')
		}
	}
	doc = append(doc, "\nxyz"...)
	x := newLineIndex(doc)
	for off := 0; off <= len(doc); off++ {
		wantLine, wantCol := 1, 1
		for _, c := range doc[:off] {
			switch {
			case c == '\n':
				wantLine, wantCol = wantLine+1, 1
			case isCharStart(c):
				wantCol++
			}
		}
		if l, c := x.position(off); l != wantLine || c != wantCol {
			t.Fatalf("position(%d) = %d:%d, want %d:%d", off, l, c, wantLine, wantCol)
		}
	}
}
