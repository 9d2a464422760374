package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

func TestCallEcho(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "echo", "--arg", "message=Hello, world"), server())...).wantCode(t, 0)
	if r.out != "Hello, world\n" {
		t.Errorf("stdout = %q", r.out)
	}
}

func TestCallArgsFollowTheSchema(t *testing.T) {
	t.Parallel()
	// "message" is a string parameter: 42, 1e3 and true stay strings.
	for _, v := range []string{"42", "1e3", "true", "null"} {
		r := run(t, args(a("call", "echo", "--arg", "message="+v), server())...).wantCode(t, 0)
		if r.out != v+"\n" {
			t.Errorf("message=%s: stdout = %q", v, r.out)
		}
	}
	// Numbers are parsed for number parameters.
	r := run(t, args(a("call", "add", "--arg", "a=1e3", "--arg", "b=2"), server())...).wantCode(t, 0)
	if !strings.HasPrefix(r.out, "1002\n") {
		t.Errorf("add: stdout = %q", r.out)
	}
	// A value that does not fit is a usage error before any call, naming
	// the argument and the type, never the value.
	for _, c := range []struct{ arg, want string }{
		{"a=ten", "--arg a: want a number"},
		{"b=[1]", "--arg b: want a number"},
	} {
		r := run(t, args(a("call", "add", "--arg", "a=1", "--arg", "b=1", "--arg", c.arg), server())...).wantCode(t, ExitUsage)
		if !strings.Contains(r.err, c.want) || r.out != "" {
			t.Errorf("%s: stdout %q, stderr %q, want %q", c.arg, r.out, r.err, c.want)
		}
	}
	r = run(t, args(a("call", "slow", "--arg", "steps=1.5"), server())...).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "--arg steps: want an integer") {
		t.Errorf("integer: stderr %q", r.err)
	}
	// --args-json is sent as written: the server refuses a number for a
	// string (the tool's isError).
	run(t, args(a("call", "echo", "--args-json", `{"message": 42}`), server())...).wantCode(t, ExitToolError)
}

func TestCallArgFromFileAndStdin(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "msg.txt")
	if err := os.WriteFile(file, []byte("from a file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := run(t, args(a("call", "echo", "--arg", "message=@"+file), server())...).wantCode(t, 0)
	if r.out != "from a file\n" {
		t.Errorf("@FILE: stdout = %q", r.out)
	}
	io := &IOStreams{In: strings.NewReader("from stdin")}
	r = runIO(t, t.Context(), io, args(a("call", "echo", "--arg", "message=@-"), server())...).wantCode(t, 0)
	if r.out != "from stdin\n" {
		t.Errorf("@-: stdout = %q", r.out)
	}
	r = run(t, args(a("call", "echo", "--arg", "message=@@at"), server())...).wantCode(t, 0)
	if r.out != "@at\n" {
		t.Errorf("@@: stdout = %q", r.out)
	}
	r = run(t, args(a("call", "echo", "--arg", "message=@"+file+".missing"), server())...).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "--arg message: cannot read") {
		t.Errorf("missing file: stderr = %q", r.err)
	}
}

func TestCallArgsJSON(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "add", "--args-json", `{"a": 1.5, "b": 2}`, "--arg", "b=40"), server())...).wantCode(t, 0)
	if !strings.HasPrefix(r.out, "41.5\n") {
		t.Errorf("--arg did not override --args-json: %q", r.out)
	}
	io := &IOStreams{In: strings.NewReader(`{"a": 2, "b": 2}`)}
	r = runIO(t, t.Context(), io, args(a("call", "add", "--args-json", "-"), server())...).wantCode(t, 0)
	if !strings.HasPrefix(r.out, "4\n") {
		t.Errorf("--args-json - did not read stdin: %q", r.out)
	}
}

func TestCallStructuredContent(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "add", "--arg", "a=2", "--arg", "b=3", "--structured"), server())...).wantCode(t, 0)
	golden(t, "call-add.golden", r.out)
}

func TestCallJSON(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "add", "--arg", "a=2", "--arg", "b=3", "--json"), pinModern, server())...).wantCode(t, 0)
	golden(t, "call-add.json.golden", r.out)
	var res struct {
		StructuredContent struct{ Sum float64 } `json:"structuredContent"`
	}
	if err := json.Unmarshal([]byte(r.out), &res); err != nil || res.StructuredContent.Sum != 5 {
		t.Errorf("--json output %q: %v", r.out, err)
	}
}

func TestCallProgressPlainLines(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "slow", "--arg", "steps=3", "--arg", "delay_ms=1"), server())...).wantCode(t, 0)
	want := "progress slow: 1/3 (33%) step 1 of 3\n" +
		"progress slow: 2/3 (66%) step 2 of 3\n" +
		"progress slow: 3/3 (100%) step 3 of 3\n"
	if r.err != want {
		t.Errorf("stderr = %q, want %q", r.err, want)
	}
	if r.out != "done after 3 steps\n" {
		t.Errorf("stdout = %q", r.out)
	}
}

func TestCallProgressLiveLine(t *testing.T) {
	t.Parallel()
	// A clock that never ticks: a loaded machine must not add the
	// elapsed line to the bar's.
	io := &IOStreams{IsTerminal: true, Width: 80, clock: newFakeClock()}
	r := runIO(t, t.Context(), io, args(a("call", "slow", "--arg", "steps=2", "--arg", "delay_ms=1"), server())...).wantCode(t, 0)
	want := "\r\x1b[Kslow [############............] 1/2 (50%) step 1 of 2" +
		"\r\x1b[Kslow [########################] 2/2 (100%) step 2 of 2" +
		"\r\x1b[K"
	if r.err != want {
		t.Errorf("stderr = %q, want %q", r.err, want)
	}
}

func TestCallNoArguments(t *testing.T) {
	t.Parallel()
	// slow has defaults for everything: no --arg at all must work.
	r := run(t, args(a("call", "slow"), server())...).wantCode(t, 0)
	if r.out != "done after 3 steps\n" {
		t.Errorf("stdout = %q", r.out)
	}
}

func TestCallLargeResult(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "large", "--arg", "bytes=1000000"), server())...).wantCode(t, 0)
	if len(r.out) != 1000001 {
		t.Errorf("stdout has %d bytes, want 1000001", len(r.out))
	}
}

func TestVerboseShowsServerLogs(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "log", "--verbose", "--arg", "message=hello from the log", "--arg", "level=warning"), server())...).wantCode(t, 0)
	if !strings.Contains(r.err, "server log [warning]") || !strings.Contains(r.err, "hello from the log") {
		t.Errorf("stderr lacks the log message: %q", r.err)
	}
	// --verbose asks for every level, debug included.
	r = run(t, args(a("call", "log", "--verbose", "--arg", "message=debug detail", "--arg", "level=debug"), server())...).wantCode(t, 0)
	if !strings.Contains(r.err, "server log [debug]") || r.out != "sent\n" {
		t.Errorf("debug log not shown with --verbose: stdout %q, stderr %q", r.out, r.err)
	}
	// Without --verbose, logs stay out of the way.
	r = run(t, args(a("call", "log", "--arg", "message=hello from the log"), server())...).wantCode(t, 0)
	if strings.Contains(r.err, "hello from the log") {
		t.Errorf("log shown without --verbose: %q", r.err)
	}
}

// A result with text prints that text alone, so that redirecting a
// read copies the file (server-filesystem sends the text again as
// structured content); --structured and --json show the structured
// content.
func TestCallTextAloneCopiesAFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	file := filepath.Join(root, "notes.txt")
	const text = "first line\nsecond line\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	command, argv := interop.ServerFilesystem(t, root)
	target := append([]string{"--", command}, argv...)
	r := run(t, args(a("call", "read_text_file", "--arg", "path="+file), target)...).wantCode(t, 0)
	if r.out != text {
		t.Errorf("call read_text_file printed %q, want the file's text %q", r.out, text)
	}
	r = run(t, args(a("call", "read_text_file", "--structured", "--arg", "path="+file), target)...).wantCode(t, 0)
	if !strings.HasPrefix(r.out, text) || !strings.Contains(r.out, "structured content:\n{\n  \"content\":") {
		t.Errorf("--structured printed %q", r.out)
	}
	r = run(t, args(a("call", "add", "--arg", "a=2", "--arg", "b=3"), server())...).wantCode(t, 0)
	if r.out != "5\n" {
		t.Errorf("add printed %q, want its text alone", r.out)
	}
}

// A log message of several lines cannot make one of them pass for
// mcpwire's own: the lines after the first are indented.
func TestLogLinesAfterTheFirstAreIndented(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "log", "--verbose", "--arg", "message=fine\nmcpwire: the server is verified"), server())...).wantCode(t, 0)
	if !strings.Contains(r.err, "fine\n  mcpwire: the server is verified\n") || linesStarting(r.err, "mcpwire: the server") != 0 {
		t.Errorf("stderr %q, want the second line indented", r.err)
	}
}
