package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// problemFiles gives the test a private home and an empty working
// directory, and returns the definition of a server that starts.
func problemFiles(t *testing.T) (dir, good string) {
	t.Helper()
	dir = untrustedHome(t)
	t.Chdir(dir)
	b, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}})
	return dir, string(b)
}

// A server's own error in a file named with --config is fatal, as the
// file's are: exit 2 before anything starts, naming file, line, column,
// server and field. serve, a gateway, refuses to start on it too.
func TestConfigServerErrorFatalInNamedFile(t *testing.T) {
	dir, good := problemFiles(t)
	jsonFile := filepath.Join(dir, "bad.json")
	write(t, jsonFile, "{\"mcpServers\": {\n  \"good\": "+good+",\n  \"bad\": {\"command\": [\"npx\"]}\n}}")
	tomlFile := filepath.Join(dir, "codex.toml")
	write(t, tomlFile, "[mcp_servers.good]\ncommand = \"x\"\n\n[mcp_servers.bad]\ncommand = 3\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{a("servers", "--config", jsonFile), jsonFile + `:3:22: server "bad": command: want a string, got array`},
		{a("tools", "--config", jsonFile), jsonFile + `:3:22: server "bad": command: want a string, got array`},
		{a("call", "--config", jsonFile, "good/echo", "--arg", "message=hi"), jsonFile + `:3:22: server "bad": command`},
		{a("servers", "--config", tomlFile), tomlFile + `:5:1: server "bad": command: want a string, got number`},
		{a("serve", "--stdio", "--config", jsonFile), jsonFile + `:3:22: server "bad": command: want a string, got array`},
	} {
		r := run(t, c.args...)
		if r.code != ExitUsage || !strings.Contains(r.err, "mcpwire: "+c.want) || r.out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.args, r.code, r.out, r.err, c.want)
		}
		// The file is what is wrong, not the command line.
		if strings.Contains(r.err, "for usage") {
			t.Errorf("%q: stderr %q points at the command's usage", c.args, r.err)
		}
	}
	r := run(t, "servers", "--config", filepath.Join(dir, "missing.json")).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "missing.json") || strings.Contains(r.err, "for usage") {
		t.Errorf("a missing --config file: stderr %q; want the file named and no usage hint", r.err)
	}
}

// Every error of a named file is shown, not only the first.
func TestConfigServerErrorsAllShown(t *testing.T) {
	dir, good := problemFiles(t)
	file := filepath.Join(dir, "bad.json")
	write(t, file, "{\"mcpServers\": {\n  \"good\": "+good+",\n  \"b1\": {\"command\": 3},\n  \"b2\": {\"url\": true}\n}}")
	r := run(t, "servers", "--config", file).wantCode(t, ExitUsage)
	for _, want := range []string{`server "b1": command: want a string`, `server "b2": url: want a string`} {
		if len(lines(r.err, "mcpwire: "+file+":")) != 2 || !strings.Contains(r.err, want) {
			t.Errorf("stderr %q; want a line with %q", r.err, want)
		}
	}
}

// In a discovered file a server's error is that server's failure (exit 3,
// the others still listed); with --strict it is fatal.
func TestConfigServerErrorStrict(t *testing.T) {
	_, good := problemFiles(t)
	user := filepath.Join(os.Getenv("HOME"), ".cursor", "mcp.json")
	write(t, user, "{\"mcpServers\": {\n  \"good\": "+good+",\n  \"bad\": {\"command\": [\"npx\"]}\n}}")
	r := runIO(t, t.Context(), &IOStreams{Width: 200}, "servers").wantCode(t, ExitConnect)
	if len(lines(r.out, "good ")) != 1 || !strings.Contains(r.out, `command: want a string, got array`) {
		t.Errorf("without --strict: stdout %q, stderr %q", r.out, r.err)
	}
	for _, command := range []string{"servers", "tools"} {
		r = run(t, command, "--strict").wantCode(t, ExitUsage)
		if !strings.Contains(r.err, "mcpwire: "+user+`:3:22: server "bad": command: want a string, got array`) || r.out != "" {
			t.Errorf("%s --strict: stdout %q, stderr %q", command, r.out, r.err)
		}
	}
}

// A server's warnings (an unknown field, an empty tool filter) are shown
// with --verbose, as the file's are, each labelled once, and not without
// it.
func TestConfigServerWarningsVerbose(t *testing.T) {
	dir, good := problemFiles(t)
	file := filepath.Join(dir, "warn.json")
	warned := strings.TrimSuffix(good, "}") + `, "bogus": 1, "enabledTools": []}`
	write(t, file, "{\"mcpServers\": {\n  \"good\": "+warned+"\n}, \"extra\": 1}")
	r := run(t, "servers", "--config", file, "--verbose").wantCode(t, 0)
	for _, want := range []string{`server "good": unknown field "bogus" ignored`, `server "good": enabledTools: an empty list filters nothing`} {
		if !strings.Contains(r.err, "mcpwire: warning: "+file+":2:") || !strings.Contains(r.err, want) {
			t.Errorf("--verbose: stderr %q; want a warning %q", r.err, want)
		}
	}
	if !strings.Contains(r.err, `unknown top-level key "extra" ignored`) || strings.Count(r.err, "warning: ") != len(lines(r.err, "mcpwire: warning: ")) {
		t.Errorf("a warning labelled twice: %q", r.err)
	}
	r = run(t, "servers", "--config", file).wantCode(t, 0)
	if strings.Contains(r.err, "bogus") {
		t.Errorf("without --verbose: stderr %q", r.err)
	}
}

// An invalid server of a discovered file fails "tools", "servers" and
// "call SERVER/TOOL" with its problem, not as a warning, and names the
// file and the server once: the manager's label and source would repeat
// them. Calling it by name is the config's error (exit 2), as under
// --config.
func TestConfigInvalidServerNotAWarning(t *testing.T) {
	_, good := problemFiles(t)
	user := filepath.Join(os.Getenv("HOME"), ".cursor", "mcp.json")
	write(t, user, "{\n\"mcpServers\": {\n  \"good\": "+good+",\n  \"bad\": {\"command\": 3}\n}}")
	problem := user + `:4:22: command: want a string, got number`
	once := func(what, out string) {
		t.Helper()
		if strings.Count(out, user) != 1 || strings.Contains(out, "invalid server definition") || strings.Contains(out, "warning") {
			t.Errorf("%s: %q names the file other than once, or keeps the manager's label", what, out)
		}
	}
	r := run(t, "tools").wantCode(t, ExitConnect)
	want := `mcpwire: server "bad" has an invalid definition: ` + problem + "\n"
	if !strings.Contains(r.err, want) || !strings.Contains(r.out, "mcp__good__echo") {
		t.Errorf("stdout %q, stderr %q; want %q", r.out, r.err, want)
	}
	once("tools", r.err)
	r = run(t, "servers").wantCode(t, ExitConnect)
	if want := "bad: invalid definition: " + problem + "\n"; !strings.Contains(r.out, want) {
		t.Errorf("servers: stdout %q; want %q", r.out, want)
	}
	_, note, _ := strings.Cut(r.out, "\n\n") // the lines under the table
	once("servers", note)
	r = run(t, "call", "bad/echo").wantCode(t, ExitUsage)
	if want := `mcpwire: server "bad" has an invalid definition: ` + problem + "\n"; r.err != want {
		t.Errorf("call: stderr %q; want %q", r.err, want)
	}
}

// A damaged approvals file trusts nothing; without --verbose the user
// must still learn why the files they approved are untrusted again.
func TestDamagedApprovalsFileAlwaysSaid(t *testing.T) {
	dir, good := problemFiles(t)
	write(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {"p": `+good+`}}`)
	store := filepath.Join(dir, "home", ".local", "state", "mcpwire", "trusted-configs.json")
	write(t, store, `{"files": `)
	r := run(t, "servers").wantCode(t, ExitOK)
	if !strings.Contains(r.err, "mcpwire: warning: "+store) || !strings.Contains(r.err, "no project file is trusted") {
		t.Errorf("stderr does not name the damaged approvals file:\n%s", r.err)
	}
	if !strings.Contains(r.out, "untrusted") {
		t.Errorf("the project's server is not untrusted:\n%s", r.out)
	}
}
