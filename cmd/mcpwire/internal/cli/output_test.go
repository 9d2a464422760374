package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

func TestTable(t *testing.T) {
	var b bytes.Buffer
	Table(&b, 30, []string{"NAME", "DESCRIPTION"}, [][]string{
		{"echo", "Returns its message."},
		{"a-longer-name", "A description that is far too long for thirty columns"},
		{"multi", "line one\nline\ttwo"},
		{},
	})
	want := "" +
		"NAME           DESCRIPTION\n" +
		"echo           Returns its me…\n" +
		"a-longer-name  A description…\n" +
		"multi          line one line…\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if n := len([]rune(line)); n > 30 {
			t.Errorf("line %q is %d runes wide", line, n)
		}
	}
}

func TestTableKeepsSomeOfANarrowLastColumn(t *testing.T) {
	var b bytes.Buffer
	Table(&b, 10, nil, [][]string{{"a-very-long-name", "description here"}})
	if got := b.String(); got != "a-very-long-name  descripti…\n" {
		t.Errorf("got %q", got)
	}
}

func TestTruncate(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		want string
	}{
		{"hello", 5, "hello"},
		{"hello", 4, "hel…"},
		{"héllo wörld", 7, "héllo…"},
		{"abc", 1, "…"},
		{"abc", 0, "…"},
	}
	for _, c := range cases {
		if got := Truncate(c.in, c.n); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	cases := []struct{ name, title, desc, want string }{
		{"echo", "", "Echoes.\nMore.", "Echoes."},
		{"echo", "Echo", "\n  Echoes.  \n", "Echo - Echoes."},
		{"echo", "echo", "Echoes.", "Echoes."},
		{"echo", "Echo", "", "Echo"},
		{"", "Hello", "", "Hello"},
		{"", "", "", ""},
	}
	for _, c := range cases {
		if got := Describe(c.name, c.title, c.desc); got != c.want {
			t.Errorf("Describe(%q, %q, %q) = %q, want %q", c.name, c.title, c.desc, got, c.want)
		}
	}
}

func TestSanitize(t *testing.T) {
	cases := map[string]string{
		"plain\ttext\n":            "plain\ttext\n",
		"red \x1b[31mALERT\x1b[0m": "red ^[[31mALERT^[[0m",
		"bell\a":                   "bell^G",
		"crlf\r\nline":             "crlf\nline",
		"cr\roverwrite":            "cr^Moverwrite",
		"del\x7f":                  "del^?",
		"c1\u009bx":                "c1\\u009bx",
		"ünïcode ✓":                "ünïcode ✓",
		"raw csi \x9b31m":          "raw csi \\x9b31m",
		"rlo \u202eexe.txt":        "rlo \\u202eexe.txt",
		"isolate \u2066x\u2069":    "isolate \\u2066x\\u2069",
		"zero\u200bwidth\ufeff":    "zero\\u200bwidth\\ufeff",
		"joiner\u2060mark\u200f":   "joiner\\u2060mark\\u200f",
		// Tag characters spell ASCII nobody sees ("ASCII smuggling"),
		// beyond the Basic Multilingual Plane; the other format
		// characters and the Hangul fillers show nothing either.
		"tag\U000e0069\U000e0067": "tag\\U000e0069\\U000e0067",
		"soft\u00adhyphen":        "soft\\u00adhyphen",
		"annotated\ufff9x\ufffb":  "annotated\\ufff9x\\ufffb",
		"filler\u3164\u115f":      "filler\\u3164\\u115f",
		"emoji ❤️ stays":          "emoji ❤️ stays", // U+FE0F selects the emoji form
	}
	for in, want := range cases {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriteContent(t *testing.T) {
	size := int64(12)
	text := "file body"
	blocks := []mcp.Content{
		mcp.TextContent("hello"),
		mcp.TextContent("with newline\n"),
		mcp.ImageContent(make([]byte, 1234), "image/png"),
		mcp.AudioContent([]byte{1, 2, 3}, "audio/wav"),
		{Type: mcp.ContentImage, Data: "!!not base64", MimeType: "image/gif"},
		{Type: mcp.ContentResourceLink, URI: "file:///a.txt", Name: "a.txt", MimeType: "text/plain", Size: &size, Description: "The A file.\nMore."},
		{Type: mcp.ContentResource, Resource: &mcp.ResourceContents{URI: "mem://t", MimeType: "text/plain", Text: &text}},
		{Type: mcp.ContentResource, Resource: &mcp.ResourceContents{URI: "mem://b", Blob: "AAEC"}},
		{Type: "hologram", Raw: json.RawMessage(`{"type":"hologram"}`)},
		mcp.TextContent("evil \x1b]0;title\a"),
	}
	var b bytes.Buffer
	WriteContent(&b, blocks)
	want := `hello
with newline
[image image/png, 1234 bytes]
[audio audio/wav, 3 bytes]
[image image/gif, invalid base64 data]
[resource link a.txt: file:///a.txt, text/plain, 12 bytes] The A file.
[resource mem://t, text/plain]
file body
[resource mem://b, 3 bytes]
[hologram content]
evil ^[]0;title^G
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestProgressPlain(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&IOStreams{ErrOut: &b}, "slow")
	total := 4.0
	p.Update(context.Background(), mcp.ProgressNotification{Progress: 1, Total: &total, Message: "step 1"})
	p.Update(context.Background(), mcp.ProgressNotification{Progress: 2.5})
	p.Done()
	p.Update(context.Background(), mcp.ProgressNotification{Progress: 3, Total: &total}) // after Done: dropped
	want := "progress slow: 1/4 (25%) step 1\nprogress slow: 2.5\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestProgressLive(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&IOStreams{ErrOut: &b, IsTerminal: true, Width: 80}, "slow")
	total := 4.0
	p.Update(context.Background(), mcp.ProgressNotification{Progress: 1, Total: &total, Message: "step\n1"})
	p.Update(context.Background(), mcp.ProgressNotification{Progress: 4, Total: &total})
	p.Done()
	want := "\r\x1b[Kslow [######..................] 1/4 (25%) step 1" +
		"\r\x1b[Kslow [########################] 4/4 (100%)" +
		"\r\x1b[K"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
	if strings.Contains(b.String(), "\n") {
		t.Error("the live line printed a newline")
	}
}

func TestProgressLiveFitsTheWidth(t *testing.T) {
	var b bytes.Buffer
	p := NewProgress(&IOStreams{ErrOut: &b, IsTerminal: true, Width: 40}, "slow")
	p.Update(context.Background(), mcp.ProgressNotification{Progress: 7, Message: strings.Repeat("long message ", 10)})
	line := strings.TrimPrefix(b.String(), "\r\x1b[K")
	if n := len([]rune(line)); n > 39 {
		t.Errorf("live line is %d runes on a 40-column terminal: %q", n, line)
	}
	p.Done()
}

func TestPrettyJSON(t *testing.T) {
	if got := PrettyJSON(json.RawMessage(`{"sum":5,"a":[1]}`)); got != "{\n  \"sum\": 5,\n  \"a\": [\n    1\n  ]\n}" {
		t.Errorf("got %q", got)
	}
	if got := PrettyJSON(json.RawMessage(`{broken`)); got != "{broken" {
		t.Errorf("got %q", got)
	}
}

func TestWriteJSONKeepsHTML(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]string{"a": "<b>&"}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "{\n  \"a\": \"<b>&\"\n}\n" {
		t.Errorf("got %q", b.String())
	}
}

func TestLogLine(t *testing.T) {
	m := mcp.LoggingMessage{Level: "warning", Logger: "db", Data: json.RawMessage(`"disk low"`)}
	if got := LogLine(m); got != "server log [warning] db: disk low" {
		t.Errorf("got %q", got)
	}
	m = mcp.LoggingMessage{Level: "info", Data: json.RawMessage(`{"n":1}`)}
	if got := LogLine(m); got != `server log [info] {"n":1}` {
		t.Errorf("got %q", got)
	}
}
