package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileText holds every kind of character a server could use to steer
// a terminal or to make text read otherwise than it is.
const hostileText = "a\x1b[31mb\u009b2Jc\u202etxt.exe\u2066d\u2069e\u200bf\ufeffg\u2060h\u007fi\u0085j"

// The --json writers escape what Sanitize escapes, so that "jq -r" shows
// no raw control, bidirectional or invisible character, and the JSON is
// still valid and means the same.
func TestJSONOutputEscapesTerminalControls(t *testing.T) {
	raw := json.RawMessage(`{"text":"` + "x\u202ey\u0085z\u200b" + `"}`)
	v := map[string]any{"text": hostileText, "raw": raw}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, v); err != nil {
		t.Fatal(err)
	}
	if err := writeJSONLine(&buf, v); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&buf)
	for i := 0; dec.More(); i++ {
		var got struct {
			Text string          `json:"text"`
			Raw  json.RawMessage `json:"raw"`
		}
		if err := dec.Decode(&got); err != nil {
			t.Fatalf("output %d is not valid JSON: %v", i, err)
		}
		if got.Text != hostileText {
			t.Errorf("output %d: text decodes to %q, want %q", i, got.Text, hostileText)
		}
		var inner struct{ Text string }
		if err := json.Unmarshal(got.Raw, &inner); err != nil || inner.Text != "x\u202ey\u0085z\u200b" {
			t.Errorf("output %d: raw decodes to %q (%v)", i, inner.Text, err)
		}
	}
	var again bytes.Buffer
	WriteJSON(&again, v)
	if i := strings.IndexFunc(again.String(), isUnsafeJSONRune); i >= 0 {
		t.Errorf("raw %U in the output: %s", []rune(again.String()[i:])[0], again.String())
	}
	for _, esc := range []string{`\u202e`, `\u009b`, `\u0085`, `\u200b`, `\ufeff`, `\u2066`, `\u007f`} {
		if !strings.Contains(again.String(), esc) {
			t.Errorf("output lacks the escape %s: %s", esc, again.String())
		}
	}
}

// A character beyond the Basic Multilingual Plane that --json escapes (a
// tag character) is written as a UTF-16 surrogate pair, as JSON wants:
// one \uXXXX of five digits would decode as another character.
func TestJSONOutputEscapesTagCharacters(t *testing.T) {
	hidden := "ok\U000e0069\U000e0067"
	var buf bytes.Buffer
	if err := WriteJSON(&buf, map[string]string{"text": hidden}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `\udb40\udc69`) {
		t.Errorf("output %s lacks the surrogate pair of U+E0069", buf.String())
	}
	var got struct{ Text string }
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil || got.Text != hidden {
		t.Errorf("output %s decodes to %q (%v), want %q", buf.String(), got.Text, err, hidden)
	}
}

// A byte that is not UTF-8 in a server's raw JSON (a one-byte CSI) comes
// out as \ufffd.
func TestJSONOutputEscapesInvalidUTF8(t *testing.T) {
	got := escapeForTerminal([]byte("{\"a\":\"x\x9b2J\"}"))
	if string(got) != `{"a":"x\ufffd2J"}` {
		t.Errorf("escapeForTerminal = %q", got)
	}
}

func FuzzEscapeForTerminal(f *testing.F) {
	f.Add(hostileText)
	f.Add("{\"a\":\"\x9b\"}")
	f.Add("tag\U000e0041\u00ad")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(s)
		if err != nil {
			t.Skip()
		}
		out := escapeForTerminal(b)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("escaped %q is not valid JSON: %v", out, err)
		}
		if want := strings.ToValidUTF8(s, "\ufffd"); back != want && utf8.ValidString(s) {
			t.Fatalf("escaped %q decodes to %q, want %q", out, back, want)
		}
		if bytes.IndexFunc(out, isUnsafeJSONRune) >= 0 || !utf8.Valid(out) {
			t.Fatalf("escaped %q still holds an unsafe rune", out)
		}
		if clean := Sanitize(s); strings.IndexFunc(clean, isUnsafeForTerminal) >= 0 || !utf8.ValidString(clean) {
			t.Fatalf("Sanitize(%q) = %q still holds an unsafe rune", s, clean)
		}
	})
}

// Through the command: a tool result full of steering characters reaches
// the terminal escaped, as text and as --json.
func TestCallOutputEscapesTerminalControls(t *testing.T) {
	t.Parallel()
	for _, format := range [][]string{nil, {"--json"}} {
		r := run(t, args(a(append([]string{"call", "echo", "--arg", "message=" + hostileText}, format...)...), server())...).wantCode(t, 0)
		if i := strings.IndexFunc(r.out, isUnsafeForTerminal); i >= 0 {
			t.Errorf("%v: raw %U on stdout: %q", format, []rune(r.out[i:])[0], r.out)
		}
		if !strings.Contains(r.out, `\u202e`) {
			t.Errorf("%v: the override is not shown escaped: %q", format, r.out)
		}
	}
}

// A server's live stderr cut in the middle of a character shows the
// character once its end arrives, not bytes that are not UTF-8; a CSI cut
// or whole never reaches the terminal raw.
func TestSanitizeWriterJoinsCutCharacters(t *testing.T) {
	var out bytes.Buffer
	w := newSanitizeWriter(&out, "")
	text := "日本\u202e語 \x9b2J ok\n"
	for i := range len(text) {
		w.Write([]byte(text[i : i+1]))
	}
	if want := "日本\\u202e語 \\x9b2J ok\n"; out.String() != want {
		t.Errorf("written byte by byte: %q, want %q", out.String(), want)
	}
}

// Text printed is sanitized in a pipe too (a pipe often ends at a
// terminal: "| head"); --output FILE keeps a text result's bytes exact,
// carriage returns and escape sequences included.
func TestCallOutputFileKeepsExactBytes(t *testing.T) {
	t.Parallel()
	text := "line one\r\nline two\x1b[1m\u202e\u0085"
	file := filepath.Join(t.TempDir(), "out.txt")
	r := run(t, args(a("call", "echo", "--arg", "message="+text), server())...).wantCode(t, 0)
	if strings.ContainsAny(r.out, "\r\x1b\u202e\u0085") {
		t.Errorf("stdout %q, want it sanitized", r.out)
	}
	run(t, args(a("call", "echo", "--arg", "message="+text, "--output", file), server())...).wantCode(t, 0)
	if b, err := os.ReadFile(file); err != nil || string(b) != text {
		t.Errorf("--output wrote %q (%v), want %q", b, err, text)
	}
}

// A server's line streamed to stderr and left open (its newline not yet
// come) is broken off when mcpwire writes a line of its own there, and
// the server's next bytes start a line of their own, after its prefix:
// they can never continue at column 0 below mcpwire's line, where they
// would pass for one of mcpwire's own ("mcpwire: ...").
func TestStreamedServerLineBrokenByMcpwiresOwn(t *testing.T) {
	var out bytes.Buffer
	errOut := &lockedWriter{w: &out}
	server := newSanitizeWriter(errOut, "[srv] ")
	server.Write([]byte("half a line"))
	errOut.Write([]byte("mcpwire: a line of mcpwire's\n"))
	server.Write([]byte("mcpwire: FAKE\nnext"))
	server.Write([]byte(" line\n"))
	errOut.Write([]byte("mcpwire: done\n"))
	want := "[srv] half a line\nmcpwire: a line of mcpwire's\n[srv] mcpwire: FAKE\n[srv] next line\nmcpwire: done\n"
	if out.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", out.String(), want)
	}
}
