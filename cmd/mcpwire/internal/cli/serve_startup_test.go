package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serve tells its operator at start what it leaves out of the endpoint:
// the servers of a project file not yet trusted (which it must not
// start), a server whose definition is broken, and one that failed to
// connect, each once; the server that works is served and not named.
func TestServeReportsWhatItDoesNotServe(t *testing.T) {
	dir := untrustedHome(t)
	good, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}})
	proj := filepath.Join(dir, "proj")
	marker := filepath.Join(dir, "started")
	write(t, filepath.Join(proj, ".mcp.json"), `{"mcpServers": {"pwn": {"command": "sh", "args": ["-c", "touch `+marker+`"]}}}`)
	user := filepath.Join(os.Getenv("HOME"), ".cursor", "mcp.json")
	write(t, user, "{\"mcpServers\": {\n  \"good\": "+string(good)+",\n  \"bad\": {\"command\": 3},\n  \"gone\": {\"command\": \"sh\", \"args\": [\"-c\", \"exit 7\"]}\n}}")
	t.Chdir(proj)

	r := run(t, "serve", "--stdio").wantCode(t, 0) // stdin is empty: the host left at once
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("serve started a server of an untrusted project file")
	}
	for _, want := range []string{
		`mcpwire: serve: not serving the servers of ` + filepath.Join(proj, ".mcp.json") + `: project config not yet trusted; review and approve it with "mcpwire trust ` + filepath.Join(proj, ".mcp.json") + `"`,
		`mcpwire: serve: not serving server "bad": its definition is invalid: ` + user + `:3:22: command: want a string, got number` + "\n",
		`mcpwire: serve: server "gone" (` + user + `:4) did not connect; its tools fail until it reconnects: `,
	} {
		if strings.Count(r.err, want) != 1 {
			t.Errorf("stderr does not say once %q:\n%s", want, r.err)
		}
	}
	if strings.Contains(r.err, `"good"`) {
		t.Errorf("the working server is named as a problem:\n%s", r.err)
	}
}
