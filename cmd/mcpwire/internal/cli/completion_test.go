package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// completions runs "mcpwire __complete words..." and returns what it
// says to complete and the candidate words (descriptions dropped).
func completions(t *testing.T, words ...string) (string, []string) {
	t.Helper()
	r := run(t, append([]string{CompleteName}, words...)...).wantCode(t, 0)
	lines := strings.Split(strings.TrimSuffix(r.out, "\n"), "\n")
	var got []string
	for _, l := range lines[1:] {
		w, _, _ := strings.Cut(l, "\t")
		got = append(got, w)
	}
	return lines[0], got
}

func wantWords(t *testing.T, words []string, kind string, want ...string) {
	t.Helper()
	gotKind, got := completions(t, words...)
	if gotKind != kind || !slices.Equal(got, want) {
		t.Errorf("complete %q = %s %q, want %s %q", words, gotKind, got, kind, want)
	}
}

func TestCompleteCommandsFlagsAndValues(t *testing.T) {
	project(t) // no user config of the machine's leaks in
	wantWords(t, a("ca"), "words", "call")
	wantWords(t, a("co"), "words", "complete", "completion")
	wantWords(t, a("help", "ver"), "words", "version")
	wantWords(t, a("completion", ""), "words", "bash", "zsh", "fish")
	wantWords(t, a("tools", "--wi"), "words", "--wide")
	// Only the flags the command accepts.
	wantWords(t, a("tools", "--tool"), "words")
	wantWords(t, a("call", "--tool"), "words", "--tool-timeout")
	wantWords(t, a("tools", "--format", ""), "words", "table", "json", "jsonl")
	wantWords(t, a("call", "--format=j"), "words", "--format=json")
	wantWords(t, a("call", "--elicit", "d"), "words", "defaults", "decline")
	wantWords(t, a("call", "--config", "x"), "files")
	wantWords(t, a("call", "--root", ""), "dirs")
	// After "--" comes the server's own command line.
	wantWords(t, a("tools", "--", "np"), "default")
	wantWords(t, a("bogus", ""), "words")
}

// Tool, prompt and resource names come from the configured servers, as
// SERVER/NAME, or bare with --server.
func TestCompleteConfiguredNames(t *testing.T) {
	dir := project(t)
	cfg := filepath.Join(dir, "complete.json")
	write(t, cfg, `{"mcpServers": {"ex": {"command": "`+os.Args[0]+`", "args": ["`+ServeName+`"]}}}`)
	_, tools := completions(t, "call", "--config", cfg, "ex/a")
	if !slices.Equal(tools, a("ex/add", "ex/add-tool")) {
		t.Errorf("call ex/a: %q", tools)
	}
	wantWords(t, a("prompt", "--server", "ex", "--config", cfg, "g"), "words", "greeting")
	wantWords(t, a("read", "--config", cfg, "ex/mcptest://static/h"), "words", "ex/mcptest://static/hello.txt")
	wantWords(t, a("ping", "--config", cfg, ""), "words", "ex")
	wantWords(t, a("call", "--config", cfg, "--server", ""), "words", "ex")
	// A URL target: nothing of the configured servers.
	wantWords(t, a("call", "--config", cfg, "http://127.0.0.1:1/mcp", ""), "words")
}

// A project file's server is never started by a completion, so TAB in a
// cloned repository runs nothing; its tools complete from the cache once
// a command used the server. The same definition named with --config (an
// explicit choice) is started.
func TestCompleteStartsNoProjectServer(t *testing.T) {
	dir := project(t)
	marker := filepath.Join(dir, "started")
	srv, _ := json.Marshal(map[string]any{"command": "/bin/sh", "args": []string{"-c", "echo > " + marker}})
	write(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"alpha": `+string(srv)+`}}`)
	wantWords(t, a("call", ""), "words")
	wantWords(t, a("tools", ""), "words", "alpha", "user:alpha") // the user's alpha stays reachable
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("completion started a server of the project's .mcp.json")
	}
	wantWords(t, a("call", "--config", filepath.Join(dir, ".mcp.json"), ""), "words")
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("completion did not start the server of a --config file: %v", err)
	}
}

// Once a command used a project server, its cached tools complete.
func TestCompleteProjectServerFromCache(t *testing.T) {
	project(t)
	if _, got := completions(t, "call", "beta/"); len(got) != 0 {
		t.Fatalf("before any command: %q", got)
	}
	run(t, "tools", "beta").wantCode(t, 0)
	_, got := completions(t, "call", "beta/e")
	if !slices.Equal(got, a("beta/echo", "beta/elicit")) {
		t.Errorf("after tools beta: %q", got)
	}
}

func TestCompletionScripts(t *testing.T) {
	t.Parallel()
	for _, shell := range a("bash", "zsh", "fish") {
		out := run(t, "completion", shell).wantCode(t, 0).out
		if !strings.Contains(out, CompleteName) {
			t.Errorf("%s script does not call %s:\n%s", shell, CompleteName, out)
		}
	}
	r := run(t, "completion", "tcsh").wantCode(t, ExitUsage)
	if !strings.Contains(r.err, `no completion for "tcsh"`) {
		t.Errorf("stderr %q", r.err)
	}
}

// Names and descriptions come from servers: a name a shell cannot take
// as one word is left out, and a description is one safe, short line.
func TestCompletionSanitizesServerText(t *testing.T) {
	for _, c := range []struct {
		word string
		ok   bool
	}{{"ex/echo", true}, {"ex/two words", false}, {"ex/a\tb", false}, {"ex/line\nbreak", false}, {"ex/\x1b[31m", false}, {"", false},
		{"ex/\u009b31m", false}, {"ex/\x9b31m", false}, {"ex/gpj\u202eexe", false}, {"ex/zero\u200bwidth", false}, {"ex/ünïcode", true}} {
		if got := completable(c.word); got != c.ok {
			t.Errorf("completable(%q) = %v, want %v", c.word, got, c.ok)
		}
	}
	long := strings.Repeat("x", 100)
	for in, want := range map[string]string{
		"Echoes.\nSecond line":   "Echoes.",
		"\x1b]0;title\x07 Hi\t":  "]0;title  Hi",
		long:                     strings.Repeat("x", 59) + "…",
		"C1 \u009b2J raw \x9b2J": "C1  2J raw \ufffd2J",
		"rlo \u202etxt.exe":      "rlo \\u202etxt.exe",
	} {
		if got := shortDesc(in); got != want {
			t.Errorf("shortDesc(%q) = %q, want %q", in, got, want)
		}
	}
}
