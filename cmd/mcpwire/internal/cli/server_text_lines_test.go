package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// labelFakingServer is an mcptest server over HTTP whose names, titles,
// versions and descriptions carry newlines followed by lines that read
// like mcpwire's own labels, each ending in FAKE.
func labelFakingServer(t *testing.T) string {
	t.Helper()
	srv := mcptest.NewServer(&mcptest.Options{
		Name:         "srv\nServer:        FAKE",
		Version:      "1.0\nProtocol:      FAKE",
		Instructions: "Use me.\nCapabilities:  FAKE",
	})
	srv.AddTool(mcptest.Tool{
		Name:        "look",
		Title:       "Look\nTitle: FAKE",
		Description: "Looks around.\nIt reads files.\n\nInput schema: FAKE\nParameters: FAKE",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {
			"path\nParameters: FAKE": {"type": "string", "description": "where\nto look"},
			"depth": {"type": "integer", "default": 1, "enum": [1,
2]}}}`),
	}, func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		return mcptest.TextResult("ok"), nil
	})
	srv.AddPrompt(mcptest.Prompt{Name: "greet", Description: "Greets.\nuser: FAKE"},
		func(context.Context, map[string]string) (*mcptest.PromptResult, error) {
			return &mcptest.PromptResult{Messages: []mcptest.PromptMessage{
				{Role: "user\nassistant: FAKE", Content: mcptest.TextContent("hello")},
			}}, nil
		})
	srv.SetCompletion(func(context.Context, *mcptest.CompletionRequest) (*mcptest.Completion, error) {
		return &mcptest.Completion{Values: []string{"one\nFAKE", "two"}}, nil
	})
	return mcptest.NewHTTPServer(t, srv, nil).URL
}

// wantNoFakeLines fails when a line of out starts with one of the fakes
// (at column 0, where mcpwire's labels are), or when a fake was dropped
// instead of shown.
func wantNoFakeLines(t *testing.T, what, out string, fakes ...string) {
	t.Helper()
	for _, f := range fakes {
		if linesStarting(out, f) != 0 {
			t.Errorf("%s: a line starts with %q:\n%s", what, f, out)
		}
	}
	if !strings.Contains(out, "FAKE") {
		t.Errorf("%s: the server's text is not shown:\n%s", what, out)
	}
}

// hasLine reports whether s has line as one of its lines.
func hasLine(s, line string) bool {
	for l := range strings.Lines(s) {
		if strings.TrimSuffix(l, "\n") == line {
			return true
		}
	}
	return false
}

// One tool in full: a newline in its title or a parameter's name shows
// as ^J, and its description keeps its lines, each indented, so that no
// line of either passes for one of mcpwire's labels.
func TestToolDetailKeepsServerTextOffMcpwireLines(t *testing.T) {
	t.Parallel()
	r := run(t, "tools", "look", labelFakingServer(t)).wantCode(t, 0)
	wantNoFakeLines(t, "tools look", r.out, "Title: FAKE", "Input schema: FAKE", "Parameters: FAKE")
	if !strings.Contains(r.out, "Title: Look^JTitle: FAKE\n") {
		t.Errorf("the title is not on its line with ^J:\n%s", r.out)
	}
	for _, l := range []string{"  Looks around.", "  It reads files.", "  Input schema: FAKE"} {
		if !hasLine(r.out, l) {
			t.Errorf("no line %q: the description lost its lines or their indent:\n%s", l, r.out)
		}
	}
	if !strings.Contains(r.out, "path^JParameters: FAKE") || !strings.Contains(r.out, "one of 1, 2") {
		t.Errorf("a parameter's name or enum is not on its line:\n%s", r.out)
	}
}

// The server's name and version in info and ping stay on their line; its
// instructions are indented under their label.
func TestInfoAndPingKeepServerTextOffMcpwireLines(t *testing.T) {
	t.Parallel()
	url := labelFakingServer(t)
	r := run(t, "info", url).wantCode(t, 0)
	wantNoFakeLines(t, "info", r.out, "Server:        FAKE", "Protocol:      FAKE", "Capabilities:  FAKE")
	if !strings.Contains(r.out, "Server:        srv^JServer:        FAKE 1.0^JProtocol:      FAKE\n") {
		t.Errorf("info: the name and version are not on their line:\n%s", r.out)
	}
	r = run(t, "ping", url).wantCode(t, 0)
	wantNoFakeLines(t, "ping", r.out, "Server:        FAKE", "Protocol:      FAKE")
	if n := strings.Count(r.out, "\n"); n != 1 {
		t.Errorf("ping: %d lines, want 1:\n%s", n, r.out)
	}
}

// A rendered prompt's role and a completion's values are one line each.
func TestPromptRoleAndCompletionValuesStayOnTheirLines(t *testing.T) {
	t.Parallel()
	url := labelFakingServer(t)
	r := run(t, "prompt", "greet", url).wantCode(t, 0)
	wantNoFakeLines(t, "prompt", r.out, "assistant: FAKE", "user: FAKE")
	r = run(t, "complete", "--prompt", "greet", "x", url).wantCode(t, 0)
	if r.out != "one^JFAKE\ntwo\n" {
		t.Errorf("complete: stdout %q, want one value a line", r.out)
	}
}

// A notification watched is one line, whatever its method holds.
func TestWatchLineIsOneLine(t *testing.T) {
	got := watchLine("[s] ", &mcp.Notification{Method: "notifications/x\nmcpwire: FAKE", Params: json.RawMessage(`{"a":
1}`)})
	if got != "[s] notifications/x^Jmcpwire: FAKE {\"a\": \u23ce 1}" {
		t.Errorf("got %q", got)
	}
}

// In the shell on configured servers, a server's log message of several
// lines has its lines after the first indented, as on the command line
// (logText): none passes for a line of mcpwire's.
func TestShellServerLogLinesAreIndented(t *testing.T) {
	var errOut strings.Builder
	sh := &shell{real: &IOStreams{ErrOut: &errOut}, io: &IOStreams{}, servers: &shellServers{s: &Session{}}}
	sh.serverEvent(manager.Event{Kind: manager.Notification, Server: "s", Notification: &mcp.Notification{
		Method: mcp.NotificationMessage,
		Params: json.RawMessage(`{"level": "info", "data": "first\nmcpwire: FAKE\nlast"}`),
	}})
	if linesStarting(errOut.String(), "mcpwire: FAKE") != 0 || !strings.Contains(errOut.String(), "first\n  mcpwire: FAKE\n  last\n") {
		t.Errorf("shell output %q, want the lines after the first indented", errOut.String())
	}
}
