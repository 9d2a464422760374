package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

func TestHeldBackEnv(t *testing.T) {
	got := heldBackEnv([]string{"PATH=/bin", "LC_ALL=C", "AWS_SECRET=s3cret", "GITHUB_TOKEN=x", "GIVEN=1", "B=2"}, []string{"GIVEN"})
	if fmt.Sprint(got) != "[AWS_SECRET B GITHUB_TOKEN]" {
		t.Errorf("held back: %v", got)
	}
}

func TestConnectHintNamesHeldBackVariablesNeverValues(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_HELD", "s3cret-value")
	err := fmt.Errorf("connect: %w", &transport.ExitError{Command: "srv", ExitCode: 1, StderrTail: "fatal: MCPWIRE_TEST_HELD is not set\n"})
	hint := connectHint(err, "", "", true, false, nil, fixFlags)
	if !strings.Contains(hint, "without MCPWIRE_TEST_HELD from yours") || !strings.Contains(hint, "--inherit-env") || strings.Contains(hint, "s3cret") {
		t.Errorf("hint %q", hint)
	}
	if h := connectHint(err, "", "", true, true, nil, fixFlags); h != "" {
		t.Errorf("with --inherit-env nothing is held back: %q", h)
	}
	if h := connectHint(err, "", "", true, false, []string{"MCPWIRE_TEST_HELD"}, fixFlags); strings.Contains(h, "MCPWIRE_TEST_HELD") {
		t.Errorf("a variable given with --env is not held back: %q", h)
	}
}

// A pinned --protocol is suspected only when the connect failed on the
// version, not when the server could not be reached.
func TestPinnedProtocolHint(t *testing.T) {
	refusal := fmt.Errorf("connect: %w", &mcp.ProtocolVersionError{Offered: "2026-07-28", Err: &jsonrpc.Error{Code: -32601, Message: "Method not found"}})
	if h := pinnedProtocolHint(refusal, "2026-07-28"); !strings.Contains(h, "--protocol 2026-07-28 pins an era") {
		t.Errorf("refused version: %q", h)
	}
	for name, err := range map[string]error{
		"a JSON-RPC error": &jsonrpc.Error{Code: -32601, Message: "Method not found"},
		"HTTP 401":         &transport.HTTPError{StatusCode: 401},
		"unreachable":      fmt.Errorf("dial tcp 127.0.0.1:1: connect: connection refused"),
		"child exited":     &transport.ExitError{Command: "srv", ExitCode: 1},
	} {
		if h := pinnedProtocolHint(err, "2026-07-28"); h != "" {
			t.Errorf("%s: %q", name, h)
		}
	}
	if h := pinnedProtocolHint(refusal, ""); h != "" {
		t.Errorf("without a pin: %q", h)
	}
}

// An HTML page where MCP was expected is one line (quoting at most the
// page's start) and a hint, not the page.
func TestHTMLAnswerHint(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!DOCTYPE html><html><body>\n<p>Please sign in</p>\n"+strings.Repeat("<p>filler</p>\n", 100)+"<p>End of page</p></body></html>")
	}))
	defer page.Close()
	r := run(t, "tools", "--transport", "http", page.URL+"/login").wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "mcpwire: hint: the URL answers with a web page") || !strings.Contains(r.err, page.URL+"/mcp") {
		t.Errorf("stderr %q", r.err)
	}
	if strings.Contains(r.err, "End of page") || strings.Count(r.err, "\n") != 2 {
		t.Errorf("the page is shown: %q", r.err)
	}
}

// Every way a web page answers (a page with 200 to the Streamable HTTP
// POST or to the legacy GET, or an error status with an HTML body) is one
// line saying what was found and what was expected, with no HTML in it.
func TestHTMLAnswerIsOneLine(t *testing.T) {
	t.Parallel()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/missing" {
			w.WriteHeader(http.StatusNotFound)
		}
		fmt.Fprint(w, "<!DOCTYPE html>\n<html><head><title>Welcome</title></head><body><p>Hello</p></body></html>")
	}))
	defer page.Close()
	for _, c := range []struct {
		args  []string
		found string
	}{
		{a("tools", page.URL+"/"), "HTTP 200 OK with text/html, not an MCP endpoint (expected a JSON-RPC answer"},
		{a("ping", "--transport", "sse", page.URL+"/"), "HTTP 200 OK with text/html, not an MCP endpoint (expected an event stream"},
		{a("info", "--transport", "http", page.URL+"/missing"), "HTTP 404 Not Found with an HTML page, not an MCP endpoint"},
	} {
		r := run(t, c.args...).wantCode(t, ExitConnect)
		first, _, _ := strings.Cut(r.err, "\n")
		if !strings.Contains(first, c.found) || strings.Contains(r.err, "<") || strings.Count(r.err, "\n") != 2 || !strings.Contains(r.err, "mcpwire: hint: ") {
			t.Errorf("%q: stderr %q; want one line with %q and the hint", c.args, r.err, c.found)
		}
	}
}

// A -- COMMAND server that exits at once names the variable it wanted.
func TestStdioHeldBackHint(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_WANTED", "v")
	r := run(t, "tools", "--", "sh", "-c", "echo 'MCPWIRE_TEST_WANTED is not set' >&2; exit 1").wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "mcpwire: hint: the server runs with a reduced environment, without MCPWIRE_TEST_WANTED from yours") {
		t.Errorf("stderr %q", r.err)
	}
	r = run(t, "tools", "--inherit-env", "--", "sh", "-c", "echo 'MCPWIRE_TEST_WANTED is not set' >&2; exit 1").wantCode(t, ExitConnect)
	if strings.Contains(r.err, "hint:") {
		t.Errorf("--inherit-env still hinted: %q", r.err)
	}
}

// A server that exits at once for a reason that is not the environment
// (a wrong argument, a missing file, nothing said at all) gets no hint
// about it; one that speaks of a missing variable or key does.
func TestStdioQuickExitHintsOnlyWhenPlausible(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_HELD", "v")
	for _, c := range []struct {
		stderr string
		hint   bool
	}{
		{"error: unknown option --prot", false},
		{"cannot open /nonexistent/data.db: no such file or directory", false},
		{"", false},
		{"Error: the OPENAI_API_KEY environment variable is missing", true},
		{"fatal: no API key configured", true},
	} {
		script := "exit 1"
		if c.stderr != "" {
			script = "echo '" + c.stderr + "' >&2; exit 1"
		}
		r := run(t, "tools", "--", "sh", "-c", script).wantCode(t, ExitConnect)
		if got := strings.Contains(r.err, "reduced environment"); got != c.hint {
			t.Errorf("stderr of the server %q: hinted %v, want %v:\n%s", c.stderr, got, c.hint, r.err)
		}
	}
}
