package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
)

// A definition that hands a server the home or the project directory
// ("${userHome}") must not mask those directories in every path shown:
// servers --json would give "***/.cursor/mcp.json" as the file.
func TestHomeDirectoryInEnvIsNoSecret(t *testing.T) {
	dir := untrustedHome(t)
	home := filepath.Join(dir, "home")
	proj := filepath.Join(dir, "proj")
	file := filepath.Join(home, ".cursor", "mcp.json")
	write(t, file, `{"mcpServers": {"s": {"command": "/nonexistent/mcp-server",
  "env": {"H": "${userHome}", "W": "${workspaceFolder}", "T": "tok-sekrit-9137"}}}}`)
	write(t, filepath.Join(proj, "README"), "")
	t.Chdir(proj)
	r := run(t, "servers", "--json", "--sources").wantCode(t, ExitConnect)
	var v struct {
		Servers []struct{ Source struct{ File string } }
		Files   []string
	}
	if err := json.Unmarshal([]byte(r.out), &v); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.out)
	}
	if len(v.Servers) != 1 || v.Servers[0].Source.File != file || len(v.Files) != 1 || v.Files[0] != file {
		t.Errorf("the file is not named as it is:\n%s", r.out)
	}
	if strings.Contains(r.out+r.err, "***") {
		t.Errorf("a directory was masked:\n%s\n%s", r.out, r.err)
	}

	io := &IOStreams{}
	addSecrets(io, &config.Server{Env: map[string]string{"H": home, "W": proj + "/", "T": "tok-sekrit-9137"}})
	if got := io.Redact(home + " " + proj + " tok-sekrit-9137"); got != home+" "+proj+" ***" {
		t.Errorf("Redact: %q", got)
	}
}
