package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// project makes a project directory whose .mcp.json names mcptest
// children (this test binary, serving the example server), a user config
// that defines "alpha" again (listed as user:alpha beside the project's),
// and a private home, config, cache and state directory, and makes it
// the working directory. The project file is trusted through
// MCPWIRE_TRUST_PROJECT: these tests are about using configured servers
// (trust_cmd_test.go is about trust). Tests that use it cannot run in
// parallel (they change the process's directory and environment).
func project(t *testing.T) string {
	t.Helper()
	dir := untrustedHome(t)
	home := filepath.Join(dir, "home")
	t.Setenv(TrustProjectEnv, "1")
	t.Setenv("MCPWIRE_TEST_TOKEN", "tok-sekrit-4711")
	child := func(faults string) string {
		args := []string{ServeName}
		if faults != "" {
			args = append(args, "--faults", faults)
		}
		b, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": args,
			"env": map[string]string{"API_TOKEN": "${MCPWIRE_TEST_TOKEN}"}})
		return string(b)
	}
	mcpJSON := `{"mcpServers": {
  "alpha": ` + child("") + `,
  "beta": ` + child("") + `,
  "broken": {"command": "x", "env": {"K": "${MCPWIRE_TEST_NEVER_SET}"}},
  "off": {"command": "x", "enabled": false}
}}`
	write(t, filepath.Join(dir, "proj", ".mcp.json"), mcpJSON)
	write(t, filepath.Join(home, ".config", "mcpwire", "mcpwire.json"), `{"servers": {"alpha": {"url": "http://127.0.0.1:1/mcp"}}}`)
	t.Chdir(filepath.Join(dir, "proj"))
	return filepath.Join(dir, "proj")
}

// untrustedHome gives the test a private home, config, cache and state
// directory under a fresh directory, which it returns; no project file
// is trusted there.
func untrustedHome(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	t.Setenv(TrustProjectEnv, "")
	return dir
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// lines returns the lines of s that start with prefix.
func lines(s, prefix string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

func TestServersListsConfiguredServers(t *testing.T) {
	dir := project(t)
	r := runIO(t, t.Context(), &IOStreams{Width: 200}, "servers").wantCode(t, ExitConnect)
	for name, want := range map[string][]string{
		"alpha":  {"stdio", "connected", filepath.Join(dir, ".mcp.json") + ":2"},
		"beta":   {"stdio", "connected"},
		"broken": {"-", "failed", "0"},
		"off":    {"stdio", "disabled", "-"},
		// The user's own alpha stays reachable beside the project's.
		"user:alpha": {"auto", "failed", filepath.Join("mcpwire", "mcpwire.json")},
	} {
		row := lines(r.out, name+" ")
		if len(row) != 1 {
			t.Fatalf("no row for %s:\n%s", name, r.out)
		}
		for _, w := range want {
			if !strings.Contains(row[0], w) {
				t.Errorf("row %q lacks %q", row[0], w)
			}
		}
	}
	if !strings.Contains(r.out, "broken: ") || !strings.Contains(r.out, "MCPWIRE_TEST_NEVER_SET") {
		t.Errorf("the broken server's problem is not shown:\n%s", r.out)
	}
	if strings.Contains(r.out, "Shadowed") {
		t.Errorf("shadowed definitions shown without --sources:\n%s", r.out)
	}
	if !strings.Contains(r.err, `cannot connect to 2 of 5 configured servers ("broken", "user:alpha")`) {
		t.Errorf("stderr: %q", r.err)
	}

	r = runIO(t, t.Context(), &IOStreams{Width: 200}, "servers", "--sources").wantCode(t, ExitConnect)
	_, shadowed, ok := strings.Cut(r.out, "Shadowed definitions")
	if !ok || !strings.Contains(shadowed, "(none)") {
		t.Errorf("--sources shows a shadowed definition where user:alpha is listed:\n%s", r.out)
	}
	if !strings.Contains(r.out, "Config files read:\n  "+filepath.Join(dir, ".mcp.json")) {
		t.Errorf("--sources does not list the files:\n%s", r.out)
	}

	r = run(t, "servers", "--json", "--sources").wantCode(t, ExitConnect)
	var v struct {
		Servers []struct {
			Name, Transport, State, Error string
			Tools                         *int
		}
		Files    []string
		Shadowed []struct{ Name, Transport string }
	}
	if err := json.Unmarshal([]byte(r.out), &v); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.out)
	}
	if len(v.Servers) != 5 || v.Servers[0].Name != "alpha" || v.Servers[0].State != "connected" || v.Servers[0].Tools == nil || *v.Servers[0].Tools == 0 {
		t.Errorf("servers: %+v", v.Servers)
	}
	if len(v.Shadowed) != 0 || v.Servers[4].Name != "user:alpha" || v.Servers[4].Transport != "auto" || len(v.Files) != 2 {
		t.Errorf("sources: files %v, shadowed %+v", v.Files, v.Shadowed)
	}
	if strings.Contains(r.out+r.err, "tok-sekrit-4711") {
		t.Error("a secret from the environment reached the output")
	}
}

// --config reads only the files given.
func TestServersConfigFlag(t *testing.T) {
	dir := project(t)
	only := filepath.Join(dir, "only.json")
	write(t, only, `{"mcpServers": {"solo": {"command": "`+os.Args[0]+`", "args": ["`+ServeName+`"]}}}`)
	r := run(t, "servers", "--config", only).wantCode(t, 0)
	if len(lines(r.out, "solo ")) != 1 || strings.Contains(r.out, "alpha") {
		t.Errorf("--config did not restrict the files:\n%s", r.out)
	}
	run(t, "servers", "--config", filepath.Join(dir, "missing.json")).wantCode(t, ExitUsage)
	// Nothing configured at all.
	empty := filepath.Join(dir, "empty.json")
	write(t, empty, `{"mcpServers": {}}`)
	r = run(t, "servers", "--config", empty).wantCode(t, 0)
	if !strings.Contains(r.out, "(no servers configured)") {
		t.Errorf("empty config: %q", r.out)
	}
}

func TestToolsAcrossConfiguredServers(t *testing.T) {
	project(t)
	r := runIO(t, t.Context(), &IOStreams{Width: 200}, "tools").wantCode(t, ExitConnect)
	for _, name := range []string{"mcp__alpha__echo ", "mcp__beta__echo ", "mcp__alpha__add "} {
		if len(lines(r.out, name)) != 1 {
			t.Errorf("no %s row:\n%s", name, r.out)
		}
	}
	if row := lines(r.out, "mcp__beta__echo "); len(row) == 1 && !strings.Contains(row[0], " beta ") {
		t.Errorf("row does not name the server: %q", row[0])
	}
	if row := lines(r.out, "mcp__beta__add "); len(row) == 1 && !strings.Contains(row[0], " (a: number, b: number) ") {
		t.Errorf("row has no signature: %q", row[0])
	}
	if !strings.Contains(r.err, `mcpwire: server "broken" has an invalid definition: `) {
		t.Errorf("the failed server is not reported: %q", r.err)
	}

	r = run(t, "tools", "--json").wantCode(t, ExitConnect)
	var v struct {
		Tools []struct {
			Name, Server string
			Tool         struct{ Name string }
		}
	}
	if err := json.Unmarshal([]byte(r.out), &v); err != nil {
		t.Fatalf("--json: %v", err)
	}
	found := false
	for _, e := range v.Tools {
		if e.Name == "mcp__beta__add" {
			found = e.Server == "beta" && e.Tool.Name == "add"
		}
	}
	if !found {
		t.Errorf("mcp__beta__add missing or wrong: %+v", v.Tools)
	}

	// Only failing servers: nothing on stdout, not "(no tools)".
	only := filepath.Join(t.TempDir(), "failing.json")
	write(t, only, `{"mcpServers": {"x": {"command": "false"}, "y": {"command": "false"}}}`)
	if r = run(t, "tools", "--config", only).wantCode(t, ExitConnect); r.out != "" || !strings.Contains(r.err, `2 of 2 configured servers`) {
		t.Errorf("every server failed: stdout %q, stderr %q", r.out, r.err)
	}
}

func TestCallConfiguredTools(t *testing.T) {
	dir := project(t)
	r := run(t, "call", "alpha/echo", "--arg", "message=by server").wantCode(t, 0)
	if r.out != "by server\n" {
		t.Errorf("alpha/echo: %q", r.out)
	}
	r = run(t, "call", "mcp__beta__add", "--arg", "a=2", "--arg", "b=3", "--json").wantCode(t, 0)
	if !strings.Contains(r.out, `"sum": 5`) {
		t.Errorf("mcp__beta__add: %s", r.out)
	}
	run(t, "call", "nobody/echo").wantCode(t, ExitUsage)
	if r := run(t, "call", "off/echo").wantCode(t, ExitUsage); !strings.Contains(r.err, `"off" is disabled in its config file`) {
		t.Errorf("disabled server: %q", r.err)
	}
	r = run(t, "call", "broken/echo").wantCode(t, ExitUsage) // its definition's error
	if !strings.Contains(r.err, "MCPWIRE_TEST_NEVER_SET") {
		t.Errorf("broken server: %q", r.err)
	}
	// The tool's own errors and unknown tools keep their exit codes.
	run(t, "call", "alpha/fail").wantCode(t, ExitToolError)
	run(t, "call", "alpha/nope").wantCode(t, ExitUsage)

	// Only the files given, so no server fails and a wrong name is the
	// user's mistake.
	only := filepath.Join(dir, "only.json")
	write(t, only, `{"mcpServers": {"solo": {"command": "`+os.Args[0]+`", "args": ["`+ServeName+`"], "disabledTools": ["add"]}}}`)
	r = run(t, "call", "mcp__solo__echo", "--config", only, "--arg", "message=model name").wantCode(t, 0)
	if r.out != "model name\n" {
		t.Errorf("mcp__solo__echo: %q", r.out)
	}
	run(t, "call", "mcp__solo__nope", "--config", only).wantCode(t, ExitUsage)
	run(t, "call", "solo/add", "--config", only, "--arg", "a=1", "--arg", "b=1").wantCode(t, ExitUsage)
	run(t, "call", "mcp__solo__add", "--config", only).wantCode(t, ExitUsage)
}

// An ad-hoc target still works beside a project config, and --config with
// one is a usage error.
func TestAdHocTargetBesideConfig(t *testing.T) {
	project(t)
	r := run(t, args(a("call", "echo", "--arg", "message=ad hoc"), server())...).wantCode(t, 0)
	if r.out != "ad hoc\n" {
		t.Errorf("ad hoc call: %q", r.out)
	}
	run(t, args(a("tools", "--config", "x.json"), server())...).wantCode(t, ExitUsage)
	run(t, "tools", "--header", "A: b").wantCode(t, ExitUsage)
}
