package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/internal/interop"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// The npm reference server and the example server behind one gateway,
// reached by the project's client over Streamable HTTP in both eras and
// over the legacy HTTP+SSE transport.
func TestServeEverythingOverHTTP(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	command, argv := interop.ServerEverything(t, "stdio")
	everything, _ := json.Marshal(map[string]any{"command": command, "args": argv})
	alpha, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}})
	cfg := filepath.Join(t.TempDir(), "servers.json")
	write(t, cfg, `{"mcpServers": {"everything": `+string(everything)+`, "alpha": `+string(alpha)+`}}`)
	url := listenGateway(t, "--config", cfg, "--legacy-sse")

	for _, tc := range []struct {
		name, typ, url, version string
	}{
		{"streamable-2025-11-25", config.TypeHTTP, url, "2025-11-25"},
		{"streamable-modern", config.TypeHTTP, url, mcp.ModernProtocolVersion},
		{"legacy-sse", config.TypeSSE, strings.TrimSuffix(url, "/mcp") + "/sse", "2024-11-05"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := transport.FromServer(&config.Server{Type: tc.typ, URL: tc.url}, transport.ServerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c, err := mcp.Connect(t.Context(), tr, &mcp.ClientOptions{ProtocolVersion: tc.version})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			names := toolNames(t, c)
			for _, want := range []string{"everything__get-sum", "everything__trigger-long-running-operation", "alpha__echo"} {
				if !strings.Contains(strings.Join(names, " "), want) {
					t.Fatalf("no %s in %v", want, names)
				}
			}
			res, err := c.CallTool(t.Context(), "everything__get-sum", map[string]any{"a": 1, "b": 41}, nil)
			if err != nil || res.IsError || !strings.Contains(textOf(res), "42") {
				t.Fatalf("everything__get-sum: %v %+v", err, res)
			}
			var progress int
			res, err = c.CallTool(t.Context(), "everything__trigger-long-running-operation", map[string]any{"duration": 0.2, "steps": 2},
				&mcp.CallOptions{OnProgress: func(context.Context, mcp.ProgressNotification) { progress++ }})
			if err != nil || res.IsError || progress < 2 {
				t.Fatalf("long-running operation: %v, %d progress, %+v", err, progress, res)
			}
		})
	}
}
