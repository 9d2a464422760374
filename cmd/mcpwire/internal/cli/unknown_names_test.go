package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// A configured call finds a tool by the server's own name (get-sum of
// server-everything), asks which server when several offer it, and an
// unknown name gets the nearest ones.
func TestConfiguredCallByToolsOwnName(t *testing.T) {
	command, argv := interop.ServerEverything(t, "stdio")
	project(t)
	everything, _ := json.Marshal(map[string]any{"command": command, "args": argv})
	example, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}})
	cfg := filepath.Join(t.TempDir(), "mcp.json")
	write(t, cfg, `{"mcpServers": {"everything": `+string(everything)+`, "example": `+string(example)+`}}`)

	r := run(t, "call", "get-sum", "--config", cfg, "--arg", "a=1", "--arg", "b=41").wantCode(t, 0)
	if !strings.Contains(r.out, "42") {
		t.Errorf("get-sum: %q", r.out)
	}
	r = run(t, "call", "echo", "--config", cfg, "--arg", "message=x").wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "everything/echo") || !strings.Contains(r.err, "example/echo") {
		t.Errorf("echo of two servers: %q", r.err)
	}
	r = run(t, "call", "get-summ", "--config", cfg).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, `did you mean "get-sum"?`) {
		t.Errorf("get-summ: %q", r.err)
	}
}

// An unknown prompt is a usage error with the nearest names, as an
// unknown tool is; a refused resource URI names the nearest listed ones.
func TestUnknownPromptAndResourceSuggest(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("prompt", "greetin"), server())...).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, `the server has no prompt "greetin"; did you mean "greeting"?`) {
		t.Errorf("prompt greetin: %q", r.err)
	}
	r = run(t, args(a("read", "mcptest://static/hello.tx"), server())...).wantCode(t, ExitProtocol)
	if !strings.Contains(r.err, `did you mean "mcptest://static/hello.txt"`) {
		t.Errorf("read hello.tx: %q", r.err)
	}
}
