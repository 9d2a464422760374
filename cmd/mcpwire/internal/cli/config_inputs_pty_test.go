package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A VS Code config whose two servers read the same promptString input
// (password: true): on a terminal it is asked once, hidden as typed, and
// both servers get it in their environment.
func TestPtyConfigInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	server := func(name string) map[string]any {
		// The server writes what it got to a file, then is the example
		// server.
		return map[string]any{
			"command": "sh",
			"args":    []string{"-c", `printf %s "$API_KEY" > "$0"; exec "$1" ` + ServeName, filepath.Join(dir, name+".got"), os.Args[0]},
			"env":     map[string]string{"API_KEY": "${input:api-key}"},
		}
	}
	doc, _ := json.Marshal(map[string]any{
		"inputs":  []map[string]any{{"id": "api-key", "type": "promptString", "description": "The API key", "password": true}},
		"servers": map[string]any{"one": server("one"), "two": server("two")},
	})
	file := filepath.Join(dir, ".vscode", "mcp.json")
	if err := os.Mkdir(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, doc, 0o600); err != nil {
		t.Fatal(err)
	}
	const secret = "s3cret-typed-value"
	s := startPty(t, nil, "tools", "--config", file)
	s.Expect(`Config input "api-key": The API key`)
	s.Expect("hidden as typed")
	// One answer is typed: a second question would wait for another, and
	// the tool list would never come.
	s.Send(secret, keyEnter)
	s.Expect("mcp__two__echo")
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
	scr := s.Written() // what was drawn and erased too
	if strings.Contains(scr, secret) {
		t.Errorf("the typed secret is on the screen:\n%s", screenTail(scr))
	}
	for _, name := range []string{"one", "two"} {
		if got, err := os.ReadFile(filepath.Join(dir, name+".got")); string(got) != secret {
			t.Errorf("server %s got API_KEY %q, %v; want the typed value", name, got, err)
		}
	}
}
