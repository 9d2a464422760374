package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// markedProcesses counts the processes whose environment holds mark.
func markedProcesses(t *testing.T, mark string) int {
	t.Helper()
	environs, err := filepath.Glob("/proc/[0-9]*/environ")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range environs {
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte(mark)) {
			n++
		}
	}
	return n
}

// When the host goes away (stdin ends), the gateway exits and no server
// it started outlives it.
func TestServeLeavesNoChildren(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	mark := "MCPWIRE_TEST_UPSTREAM_MARK=" + filepath.Base(t.TempDir())
	k, v, _ := bytes.Cut([]byte(mark), []byte("="))
	server := func() string {
		b, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}, "env": map[string]string{string(k): string(v)}})
		return string(b)
	}
	cfg := filepath.Join(t.TempDir(), "servers.json")
	write(t, cfg, `{"mcpServers": {"alpha": `+server()+`, "beta": `+server()+`}}`)

	c, err := mcp.Connect(t.Context(), &transport.Command{Command: os.Args[0], Args: []string{"serve", "--stdio", "--config", cfg}, InheritEnv: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(toolNames(t, c)) == 0 {
		t.Fatal("no tools")
	}
	if n := markedProcesses(t, mark); n != 2 {
		t.Fatalf("%d upstream processes while serving, want 2", n)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if n := markedProcesses(t, mark); n != 0 {
		t.Fatalf("%d upstream processes outlive the gateway", n)
	}
}
