package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// validSeeds cover each rule of the grammar from both sides: strings with
// every escape and control bytes at each position of an eight-byte word,
// numbers, literals, nesting, white space and trailing input.
var validSeeds = []string{
	``, ` `, `""`, `"abc"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\uD83D\uDE00"`, `"\u12"`, `"\u12G4"`, `"\x"`,
	`"` + "\x01" + `"`, `"1234567` + "\x1f" + `"`, `"12345678` + "\x00" + `9"`, `"héllo wörld, long enough to take words"`,
	"\"\xff\xfe\"", `"abc`, `"abc\`, `"abcdefgh\`,
	`0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e`, `1e+`, `1E-7`, `-12.34e+56`, `1x`, `+1`, `0.0e0`,
	`true`, `tru`, `truex`, `false`, `null`, `nul`, `True`,
	`{}`, `[]`, `{ }`, `[ ]`, `{"a":1}`, `{"a" : [1, 2, {"b": null}] }`, `{"a":1,}`, `[1,]`, `[,1]`, `{,}`,
	`{"a"}`, `{"a":}`, `{1:2}`, `{"a":1 "b":2}`, `[1 2]`, `[1}`, `{"a":1]`, `]`, `}`, `[[]]]`, `[[]`,
	" \t\r\n{\"k\":\"v\"}\n ", `{} {}`, `1 2`, `"a" "b"`, `[] x`,
}

func FuzzValid(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`["` + strings.Repeat("a", longString) + `\n\"b\u00e9\\\n",1]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := Valid(b), json.Valid(b); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid says %v", b, got, want)
		}
		// A valid value followed by more input ends where it ends.
		v := bytes.TrimSpace(b)
		if !json.Valid(v) {
			return
		}
		in := append(append([]byte{}, v...), " ,1"...)
		if end, ok := ValidValue(in, 0); !ok || end != len(v) {
			t.Fatalf("ValidValue(%q) = %d, %v; want %d, true", in, end, ok, len(v))
		}
	})
}

func TestValidAgreesWithEncodingJSON(t *testing.T) {
	cases := append([]string(nil), validSeeds...)
	// Nesting up to encoding/json's limit is valid, one more level is not.
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		cases = append(cases,
			strings.Repeat("[", depth)+strings.Repeat("]", depth),
			strings.Repeat(`{"a":`, depth)+"1"+strings.Repeat("}", depth))
	}
	// Objects and arrays mixed past the 64 levels kept as bits, closed
	// rightly and wrongly.
	cases = append(cases,
		strings.Repeat(`[{"a":`, 40)+"1"+strings.Repeat("}]", 40),
		strings.Repeat(`[{"a":`, 40)+"1"+strings.Repeat("]}", 40),
		strings.Repeat(`[{"a":`, 40)+"1"+strings.Repeat("}]", 39)+"}}",
		strings.Repeat(`{"a":[`, 40)+"1"+strings.Repeat("],", 40))
	// A forbidden byte or an escape at every offset of a long string,
	// so that each lane of the eight-byte check is exercised.
	for _, bad := range []string{"\x00", "\x1f", `\`, `"`, `\n`, `\u0041`} {
		for at := range 17 {
			cases = append(cases, `"`+strings.Repeat("a", at)+bad+strings.Repeat("b", 17-at)+`"`)
		}
	}
	for _, c := range cases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%.60q) = %v, json.Valid says %v", c, got, want)
		}
	}
}

// A long string goes on past its first escape by validLongString: a
// forbidden byte, a bad escape or the string's end at every offset after
// that escape, and after a second one, agrees with encoding/json.
func TestValidLongStringsAgreeWithEncodingJSON(t *testing.T) {
	long := strings.Repeat("a", longString+6)
	var cases []string
	for _, bad := range []string{"\x00", "\x1f", "\x7f", "\xc3\xa9", `\`, `\x`, `\u12`, `\u12g4`, `\u00e9`, `\"`, `\\`, `"`, `\\"`, `\\\"`} {
		for at := range 19 {
			for _, second := range []string{"", `\t` + strings.Repeat("b", 9)} {
				body := long + `\n` + second + strings.Repeat("c", at) + bad + strings.Repeat("d", 18-at)
				cases = append(cases, `"`+body+`"`, `"`+body, `["`+body+`",1]`)
			}
		}
	}
	for _, c := range cases {
		if got, want := Valid([]byte(c)), json.Valid([]byte(c)); got != want {
			t.Errorf("Valid(%q) = %v, json.Valid says %v", c, got, want)
		}
		if end, ok := ValidValue([]byte(c+" "), 0); json.Valid([]byte(c)) && (!ok || end != len(c)) {
			t.Errorf("ValidValue(%q) = %d, %v", c, end, ok)
		}
	}
}

func BenchmarkValid(b *testing.B) {
	text := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat("lorem ipsum dolor sit amet ", 40000) + `"}]}}`
	tool := `{"name":"tool","description":"Tool of the list: reads a file below the given path.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where to start"},"limit":{"type":"integer","minimum":1}},"required":["path"]}}`
	list := `{"tools":[` + strings.Repeat(tool+",", 999) + tool + `]}`
	// The bench's big result: lines of prose, each ending in a \n escape.
	line := `The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n`
	lines := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + strings.Repeat(line, 12000) + `"}]}}`
	for _, c := range []struct{ name, data string }{{"text", text}, {"lines", lines}, {"tools", list}} {
		data := []byte(c.data)
		b.Run(c.name+"/jsonscan", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !Valid(data) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(c.name+"/encoding-json", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !json.Valid(data) {
					b.Fatal("invalid")
				}
			}
		})
	}
}

// BenchmarkSkipQuoted finds the end of a tools/list page the way the codec
// does for a result it leaves to its decoder, and of a large text.
func BenchmarkSkipQuoted(b *testing.B) {
	tool := `{"name":"tool","description":"Tool of the list: reads a file below the given path.","inputSchema":{"type":"object","properties":{"path":{"type":"string","description":"where to start"},"limit":{"type":"integer","minimum":1}},"required":["path"]}}`
	line := `The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n`
	for _, c := range []struct{ name, data string }{
		{"tools", `{"tools":[` + strings.Repeat(tool+",", 999) + tool + `]}`},
		{"lines", `{"content":[{"type":"text","text":"` + strings.Repeat(line, 12000) + `"}]}`},
	} {
		data := []byte(c.data)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if SkipQuoted(data, 0) != len(data) {
					b.Fatal("wrong end")
				}
			}
		})
	}
}
