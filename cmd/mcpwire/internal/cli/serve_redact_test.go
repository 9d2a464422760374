package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// serve --stdio masks the config's secrets in what it sends the host
// string by string, not byte by byte: a registered value that is all
// digits (an env value of an upstream, 300000 here) must not turn the
// host's request id 300000 into "***", which no host can read, while the
// same value inside a result's text is masked.
func TestServeStdioMasksStringsNotStructure(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	cfg := filepath.Join(t.TempDir(), "servers.json")
	def, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"alpha": map[string]any{
		"command": os.Args[0], "args": []string{ServeName}, "env": map[string]string{"LIMIT": "300000"}}}})
	write(t, cfg, string(def))
	cmd := exec.CommandContext(t.Context(), os.Args[0], "serve", "--stdio", "--config", cfg)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = in.Close(); _ = cmd.Wait() })
	lines := bufio.NewScanner(out)
	lines.Buffer(nil, 1<<20)
	ask := func(line string) map[string]any {
		t.Helper()
		if _, err := fmt.Fprintln(in, line); err != nil {
			t.Fatal(err)
		}
		for lines.Scan() {
			var m map[string]any
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("serve wrote a line that is not JSON: %q (%v)", lines.Text(), err)
			}
			if _, ok := m["id"]; ok {
				return m
			}
		}
		t.Fatalf("serve ended: %v", lines.Err())
		return nil
	}
	init := ask(`{"jsonrpc":"2.0","id":300000,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if init["id"] != float64(300000) || init["result"] == nil {
		t.Fatalf("initialize answered %v", init)
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	echo := ask(`{"jsonrpc":"2.0","id":300001,"method":"tools/call","params":{"name":"alpha__echo","arguments":{"message":"limit 300000"}}}`)
	b, _ := json.Marshal(echo["result"])
	if !strings.Contains(string(b), "limit ***") || strings.Contains(string(b), "300000") {
		t.Errorf("echo result %s, want the value masked in its text", b)
	}
}
