package cli

import (
	"slices"
	"strings"
	"testing"
)

// A shell line splits as a POSIX shell quotes it, with nothing expanded.
func TestShellWords(t *testing.T) {
	t.Parallel()
	for line, want := range map[string][]string{
		`call echo message=hi`:              {"call", "echo", "message=hi"},
		"  call\techo  ":                    {"call", "echo"},
		`call echo message="hello world"`:   {"call", "echo", "message=hello world"},
		`call echo 'message=it''s'`:         {"call", "echo", "message=its"},
		`call echo message='a "b" \c'`:      {"call", "echo", `message=a "b" \c`},
		`call echo message="a \"b\" \\ \c"`: {"call", "echo", `message=a "b" \ \c`},
		`call echo message=a\ b`:            {"call", "echo", "message=a b"},
		`call echo message=''`:              {"call", "echo", "message="},
		`call echo ''`:                      {"call", "echo", ""},
		`call echo m=$HOME~*#x`:             {"call", "echo", "m=$HOME~*#x"},
		`call echo m='{"a": [1, 2]}'`:       {"call", "echo", `m={"a": [1, 2]}`},
		`call echo m=é\é`:                   {"call", "echo", "m=éé"},
		``:                                  nil,
	} {
		got, err := shellWords(line)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", line, got, err, want)
		}
	}
	for line, want := range map[string]string{
		`call echo message="hi`: `the " at column 19 is not closed`,
		`call echo 'hi`:         `the ' at column 11 is not closed`,
		`call echo hi\`:         `the \ at column 13 escapes nothing`,
	} {
		if _, err := shellWords(line); err == nil || err.Error() != want {
			t.Errorf("shellWords(%q): error %v, want %q", line, err, want)
		}
	}
}

// Any line splits or fails cleanly, and a line with no quote or backslash
// splits at its blanks.
func FuzzShellWords(f *testing.F) {
	for _, s := range []string{`call echo message="hello world"`, `a 'b c' d\ e`, `"\"`, `'`, `\`, "x\ty"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words, err := shellWords(line)
		if err != nil {
			return
		}
		if !strings.ContainsAny(line, `'"\`) && !slices.Equal(words, fieldsOfBlanks(line)) {
			t.Fatalf("shellWords(%q) = %q, want its blank-separated words", line, words)
		}
		total := 0
		for _, w := range words {
			total += len(w)
		}
		if total > len(line) {
			t.Fatalf("shellWords(%q) made %d bytes of words out of %d", line, total, len(line))
		}
	})
}

// fieldsOfBlanks splits on spaces and tabs only, as shellWords does.
func fieldsOfBlanks(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
}
