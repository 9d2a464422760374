package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// evil holds escape sequences a hostile server may put in any string: a
// title change (OSC), a cleared screen (CSI), a bell, a C1 CSI.
const evil = "\x1b]0;owned\x07\x1b[2J\u009b31m"

// escapingServer is a Streamable HTTP MCP server, written by hand, whose
// every name, title and description carries escape sequences.
func escapingServer(t *testing.T) string {
	t.Helper()
	return escapingServerWithout(t)
}

// escapingServerWithout is escapingServer, failing the methods named with
// an error whose message carries the escape sequences.
func escapingServerWithout(t *testing.T, failing ...string) string {
	t.Helper()
	results := map[string]any{
		"initialize": map[string]any{
			"protocolVersion": "2025-06-18",
			"capabilities":    map[string]any{"tools": map[string]any{}, "prompts": map[string]any{}, "resources": map[string]any{}},
			"serverInfo":      map[string]any{"name": "srv" + evil, "version": "1" + evil},
			"instructions":    "use me" + evil,
		},
		"tools/list": map[string]any{"tools": []any{map[string]any{
			"name": "tool" + evil, "title": "Title" + evil, "description": "does" + evil,
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"arg" + evil: map[string]any{"type": "string", "description": "an arg" + evil}}},
		}}},
		"prompts/list": map[string]any{"prompts": []any{map[string]any{
			"name": "prompt" + evil, "title": "Title" + evil, "description": "says" + evil,
			"arguments": []any{map[string]any{"name": "who" + evil}},
		}}},
		"resources/list": map[string]any{"resources": []any{map[string]any{
			"uri": "file:///x" + evil, "name": "res" + evil, "title": "Title" + evil, "description": "holds" + evil, "mimeType": "text/plain" + evil,
		}}},
		"resources/templates/list": map[string]any{"resourceTemplates": []any{map[string]any{
			"uriTemplate": "file:///{x}" + evil, "name": "tpl" + evil, "description": "makes" + evil,
		}}},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted) // a notification
			return
		}
		reply := map[string]any{"jsonrpc": "2.0", "id": req.ID}
		if res, ok := results[req.Method]; ok && !slices.Contains(failing, req.Method) {
			reply["result"] = res
		} else {
			reply["error"] = map[string]any{"code": -32601, "message": "no " + req.Method + evil}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(reply)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// Every string a server provides reaches the terminal without its escape
// sequences: names, titles and descriptions in tables and details, the
// server's info and instructions, its error messages.
func TestServerStringsAreSanitizedOnTheTerminal(t *testing.T) {
	url := escapingServer(t)
	for _, cmd := range [][]string{
		{"info"}, {"tools"}, {"tools", "tool" + evil}, {"prompts"}, {"resources"}, {"ping"},
	} {
		r := run(t, append(cmd, url)...)
		all := r.out + r.err
		if strings.ContainsAny(all, "\x1b\x07\u009b") {
			t.Errorf("%q: raw escape on the output:\nstdout %q\nstderr %q", cmd[0], r.out, r.err)
		}
		if r.code == ExitOK && !strings.Contains(all, "^[") && cmd[0] != "ping" {
			t.Errorf("%q: the server's strings are not shown in caret notation:\nstdout %q\nstderr %q", cmd[0], r.out, r.err)
		}
	}
}

// A stdio server's stderr, copied live with --verbose, loses its escape
// sequences too.
func TestLiveStderrIsSanitized(t *testing.T) {
	r := run(t, "tools", "--verbose", "--", "sh", "-c", `printf 'boom\033]0;owned\007\033[2J\n' >&2; exit 3`)
	if r.code == ExitOK {
		t.Fatalf("exit 0 from a server that exits at once\nstderr %q", r.err)
	}
	if strings.ContainsAny(r.err, "\x1b\x07") {
		t.Errorf("raw escape on stderr: %q", r.err)
	}
	if !strings.Contains(r.err, "[sh] boom^[]0;owned^G^[[2J") {
		t.Errorf("stderr %q, want the server's line in caret notation", r.err)
	}
}

// Copied live, a stdio server's stderr lines are prefixed with its
// command's name, as a configured server's are with its name: a line
// cannot pass for one of mcpwire's own.
func TestLiveStderrIsPrefixed(t *testing.T) {
	r := run(t, "tools", "--verbose", "--", "sh", "-c", `printf 'mcpwire: fake\nsecond' >&2; printf ' half\n' >&2; exit 3`)
	if linesStarting(r.err, "mcpwire: fake") != 0 || !strings.Contains(r.err, "[sh] mcpwire: fake\n[sh] second half\nmcpwire: cannot connect") {
		t.Errorf("stderr %q, want the server's lines prefixed with [sh]", r.err)
	}
}

// A progress message is the server's too.
func TestProgressMessageIsSanitized(t *testing.T) {
	got := progressText(mcp.ProgressNotification{Progress: 1, Message: "step" + evil})
	if strings.ContainsAny(got, "\x1b\x07\u009b") || !strings.Contains(got, "step^[") {
		t.Errorf("progressText = %q", got)
	}
}

// serve's warnings carry a server's error messages (a failed listing of
// its resource templates): they reach the operator's terminal without
// their escape sequences, on one line.
func TestServeWarningsAreSanitized(t *testing.T) {
	untrustedHome(t)
	url := escapingServerWithout(t, "resources/templates/list")
	write(t, filepath.Join(os.Getenv("HOME"), ".cursor", "mcp.json"), `{"mcpServers": {"evil": {"url": "`+url+`"}}}`)
	r := run(t, "serve", "--stdio").wantCode(t, 0) // stdin is empty: the host left at once
	if !strings.Contains(r.err, "listing its resource templates") {
		t.Fatalf("no warning about the failed listing:\n%s", r.err)
	}
	if strings.ContainsAny(r.err, "\x1b\x07\u009b") {
		t.Errorf("raw escape on stderr: %q", r.err)
	}
}
