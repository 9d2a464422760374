package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// server-memory from npm over stdio: array-of-object arguments given as
// JSON to --arg, and a graph that a later call reads back.
func TestServerMemory(t *testing.T) {
	t.Parallel()
	// The graph file is the test's own: the server's default lives in
	// node_modules and would be shared by every run.
	graph := filepath.Join(t.TempDir(), "graph.jsonl")
	command, argv := interop.ServerMemory(t)
	target := append([]string{"--env", "MEMORY_FILE_PATH=" + graph, "--", command}, argv...)
	// The graph file's directory is a new temporary one on every run.
	normalise := strings.NewReplacer(graph, "$GRAPH").Replace
	got := transcript(t, target, normalise,
		a("tools"),
		a("tools", "create_entities"),
		a("call", "create_entities", "--arg", `entities=[{"name":"mcpwire","entityType":"tool","observations":["speaks MCP"]}]`),
		a("call", "search_nodes", "--json", "--arg", "query=mcpwire"),
		a("call", "open_node", "--arg", "names=[\"mcpwire\"]"),
		// An array parameter takes JSON; a bare word is a usage error.
		a("call", "open_nodes", "--arg", "names=mcpwire"),
		// The server's own -32602 (input validation) is an isError result.
		a("call", "create_entities", "--args-json", `{"entities":"mcpwire"}`),
	)
	wantExits(t, got, 0, 0, 0, 0, ExitUsage, ExitUsage, ExitToolError)
	golden(t, "memory.golden", got)
}
