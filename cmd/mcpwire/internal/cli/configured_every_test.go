package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command takes a configured server: by --server NAME, as its
// first argument, or as NAME/... where it names a tool, prompt or
// resource; without a name, the listing commands go over them all.
func TestEveryCommandOnConfiguredServers(t *testing.T) {
	project(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{a("tools", "alpha"), "echo        (message: string)"},
		{a("tools", "--server", "beta"), "add         (a: number, b: number)"},
		{a("tools", "alpha/add"), "add(a: number, b: number) -> {sum}"},
		{a("resources", "alpha"), "mcptest://static/hello.txt"},
		{a("prompts", "--server", "alpha"), "summarize  topic*,style"},
		{a("info", "beta"), "Server:        mcptest 1.0.0"},
		{a("read", "alpha/mcptest://static/hello.txt"), "Hello"},
		{a("read", "--server", "alpha", "mcptest://static/hello.txt"), "Hello"},
		{a("prompt", "alpha/greeting"), "user:"},
		{a("ping", "alpha"), "ok: mcptest 1.0.0"},
		{a("call", "--server", "beta", "echo", "--arg", "message=hi"), "hi\n"},
	} {
		r := run(t, c.args...)
		if r.code != 0 || !strings.Contains(r.out, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", c.args, r.code, r.out, r.err, c.want)
		}
	}
	// Without a name: every enabled server, each under its name; the one
	// that fails is reported and makes the exit status 3.
	r := run(t, "resources").wantCode(t, ExitConnect)
	if !strings.Contains(r.out, "== alpha\n") || !strings.Contains(r.out, "== beta\n") || strings.Count(r.out, "mcptest://static/hello.txt") != 2 {
		t.Errorf("resources over all servers: %q", r.out)
	}
	if !strings.Contains(r.err, `server "broken"`) {
		t.Errorf("the failed server is not named: %q", r.err)
	}
	// A name that is no server gets suggestions, not a word about URLs.
	for _, args := range [][]string{a("tools", "alpah"), a("resources", "alpah"), a("info", "--server", "alpah")} {
		r := run(t, args...).wantCode(t, ExitUsage)
		if !strings.Contains(r.err, `no configured server is named "alpah"; did you mean "alpha"?`) {
			t.Errorf("%q: stderr %q", args, r.err)
		}
	}
	// A command that needs one server, with several configured.
	r = run(t, "read", "mcptest://static/hello.txt").wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "which server? name one with --server NAME or as NAME/URI") {
		t.Errorf("read without a server: %q", r.err)
	}
}

// A file named with --config that is broken or missing is exit 2; a
// discovered one only warns, unless --strict.
func TestConfigProblemsExitCodes(t *testing.T) {
	dir := project(t)
	bad := filepath.Join(dir, "bad.json")
	write(t, bad, `{"mcpServers": {"a": {"command": "x",}`)
	r := run(t, "servers", "--config", bad).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "bad.json") {
		t.Errorf("syntax error: %q", r.err)
	}
	run(t, "servers", "--config", filepath.Join(dir, "missing.json")).wantCode(t, ExitUsage)

	// A broken user-level file (another tool's) only warns while other
	// servers load...
	userFile := filepath.Join(os.Getenv("HOME"), ".cursor", "mcp.json")
	write(t, userFile, "{\"mcpServers\": {\n  \"c\": {\"command\": \"x\" \"args\": []}}}")
	r = run(t, "tools", "alpha").wantCode(t, 0)
	if !strings.Contains(r.err, "warning: "+userFile+":2:") {
		t.Errorf("discovered broken user file: no warning in %q", r.err)
	}
	r = run(t, "tools", "alpha", "--strict").wantCode(t, ExitUsage)
	if !strings.Contains(r.err, userFile+":2:") {
		t.Errorf("--strict: %q", r.err)
	}
	// ... and is an error when it leaves no server.
	r = run(t, "servers", "--config", userFile).wantCode(t, ExitUsage)
	// A broken file of the project is an error naming its line and column,
	// never "(no servers configured)" and exit 0.
	write(t, filepath.Join(dir, "mcpwire.json"), "{\"servers\": {\n  \"d\": {\"command\": \"x\" \"args\": []}}}")
	for _, command := range []string{"servers", "tools", "resources", "info"} {
		r = run(t, command).wantCode(t, ExitUsage)
		if !strings.Contains(r.err, filepath.Join(dir, "mcpwire.json")+":2:24: ") || strings.Contains(r.out, "no servers configured") {
			t.Errorf("%s with a broken project file: stdout %q, stderr %q", command, r.out, r.err)
		}
	}
}

// A broken discovered file that leaves no server at all is an error, not
// "(no servers configured)".
func TestBrokenConfigAloneIsAnError(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	userFile := filepath.Join(home, ".config", "mcpwire", "mcpwire.json")
	write(t, userFile, "{\"servers\": {\n  \"d\": {\"command\": \"x\" \"args\": []}}}")
	t.Chdir(dir)
	r := run(t, "servers").wantCode(t, ExitUsage)
	if !strings.Contains(r.err, userFile+":2:24: ") {
		t.Errorf("stderr %q", r.err)
	}
}

// A configured server that hangs or dies reads as the -- COMMAND form
// does: "timed out after", and the stderr tail as lines.
func TestConfiguredServerFailuresReadLikeAdHoc(t *testing.T) {
	dir := project(t)
	cfg := filepath.Join(dir, "failing.json")
	hung, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName, "--faults", "never-answer:server/discover,never-answer:initialize"}})
	write(t, cfg, `{"mcpServers": {
  "hung": `+string(hung)+`,
  "dies": {"command": "sh", "args": ["-c", "read line; echo 'line one' >&2; echo 'line two' >&2; exit 3"]}
}}`)
	r := run(t, "tools", "hung", "--config", cfg, "--timeout", "300ms").wantCode(t, ExitConnect)
	if !strings.Contains(r.err, `cannot connect to server "hung": the handshake timed out after 300ms`) {
		t.Errorf("hung: %q", r.err)
	}
	r = run(t, "tools", "dies", "--config", cfg).wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "server stderr (last lines):\n  | line one\n  | line two\n") || strings.Contains(r.err, "\u23ce") {
		t.Errorf("dies: %q", r.err)
	}
	r = run(t, "tools", "--config", cfg, "--timeout", "300ms").wantCode(t, ExitConnect)
	if !strings.Contains(r.err, `mcpwire: cannot connect to server "hung" (`) || !strings.Contains(r.err, "the handshake timed out after 300ms") ||
		!strings.Contains(r.err, "  | line one\n  | line two\n") {
		t.Errorf("all servers: %q", r.err)
	}
}

// A handshake cut short by the server's own configured "timeout" (shorter
// than --timeout) names that timeout and where to raise it, not --timeout,
// and the request the server left unanswered (the probe ran out first, and
// initialize after it).
func TestHandshakeTimeoutNamesTheConfiguredOne(t *testing.T) {
	dir := project(t)
	cfg := filepath.Join(dir, "short.json")
	hung, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName, "--faults", "never-answer:server/discover,never-answer:initialize"}, "timeout": 300})
	write(t, cfg, `{"mcpServers": {"hung": `+string(hung)+`}}`)
	want := `the handshake timed out after 300ms waiting for the answer to initialize (the server's "timeout" in its config`
	r := run(t, "tools", "hung", "--config", cfg, "--timeout", "20s").wantCode(t, ExitConnect)
	if !strings.Contains(r.err, want) || strings.Contains(r.err, "20s") {
		t.Errorf("one server: %q", r.err)
	}
	r = run(t, "tools", "--config", cfg, "--timeout", "20s").wantCode(t, ExitConnect)
	if !strings.Contains(r.err, `mcpwire: cannot connect to server "hung" (`) || !strings.Contains(r.err, want) {
		t.Errorf("all servers: %q", r.err)
	}
}

// unmetServerConfig writes a project config with one server, name, the
// example server with faults armed and the configured "timeout" in ms,
// and returns its path. The server's env names this run's directory, so
// that it is one this process never met and its era negotiation sends the
// probe: the era of a server met before is remembered, and initialize
// would go first (a test failed so on its second run under -count=2).
func unmetServerConfig(t *testing.T, name, faults string, timeoutMS int) string {
	t.Helper()
	dir := project(t)
	cfg := filepath.Join(dir, "short.json")
	srv, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName, "--faults", faults}, "timeout": timeoutMS,
		"env": map[string]string{"MCPWIRE_TEST_RUN_DIR": dir}})
	write(t, cfg, `{"mcpServers": {"`+name+`": `+string(srv)+`}}`)
	return cfg
}

// A legacy server that drops server/discover without a word connects
// under a configured "timeout" shorter than the probe's bound: the probe
// runs out of it and initialize decides, as it would after the bound.
// (It failed the connect: "the handshake timed out after 300ms".)
func TestShortTimeoutLegacyServerDroppingTheProbe(t *testing.T) {
	cfg := unmetServerConfig(t, "legacy", "never-answer:server/discover", 300)
	r := run(t, "tools", "legacy", "--config", cfg).wantCode(t, 0)
	if !strings.Contains(r.out, "echo") {
		t.Errorf("stdout %q, stderr %q", r.out, r.err)
	}
}

// The configured "timeout" is each request's deadline, --timeout the
// whole connect's: a shorter "timeout" is not always what ran out. Here
// the handshake waits for initialize after a probe the server drops
// (probeBound), and tools/list, sent after it, would run out of the
// configured 4s later than the connect runs out of --timeout: the
// message names --timeout, and tools/list, the request it waited for.
// The probe must be sent, so the server is one this process never met.
func TestConnectTimeoutNamedWhenItRanOutFirst(t *testing.T) {
	cfg := unmetServerConfig(t, "hung", "never-answer:server/discover,never-answer:tools/list", 4000)
	r := run(t, "tools", "hung", "--config", cfg, "--timeout", "4100ms").wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "timed out after 4.1s waiting for the answer to tools/list (raise --timeout") || strings.Contains(r.err, `"timeout" in its config`) {
		t.Errorf("stderr = %q", r.err)
	}
}

// An unset VS Code input names the CLI's ways to give it. In a file named
// with --config it is an error of the file (exit 2), as any server's is.
func TestVSCodeInput(t *testing.T) {
	dir := project(t)
	cfg := filepath.Join(dir, ".vscode", "mcp.json")
	srv, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}, "env": map[string]string{"KEY": "${input:api-key}"}})
	write(t, cfg, `{"inputs": [{"id": "api-key", "type": "promptString", "password": true}], "servers": {"s": `+string(srv)+`}}`)
	r := run(t, "tools", "s", "--config", cfg).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, `input "api-key" has no value; set MCPWIRE_INPUT_API_KEY or give --input api-key=VALUE`) || strings.Contains(r.err, "LoadOptions") {
		t.Errorf("stderr %q", r.err)
	}
	run(t, "tools", "s", "--config", cfg, "--input", "api-key=v4lue-s3cret").wantCode(t, 0)
}

// Every unset input names --input, not only the last: the lines before
// the error are the same problems, reported as warnings.
func TestVSCodeInputsEachNameTheFlag(t *testing.T) {
	dir := project(t)
	cfg := filepath.Join(dir, ".vscode", "mcp.json")
	srv, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}, "env": map[string]string{"KEY": "${input:api-key}", "REGION": "${input:region}"}})
	write(t, cfg, `{"inputs": [{"id": "api-key", "type": "promptString", "password": true}, {"id": "region", "type": "promptString"}], "servers": {"s": `+string(srv)+`}}`)
	r := run(t, "tools", "s", "--config", cfg).wantCode(t, ExitUsage)
	for _, id := range []string{"api-key", "region"} {
		if !strings.Contains(r.err, "give --input "+id+"=VALUE") {
			t.Errorf("input %q: no mention of --input in %q", id, r.err)
		}
	}
}

// A hung server does not hold back the others' results: they are printed
// as each server comes up, before the hung one's failure. The timeout
// leaves the good server, a re-executed test binary, time to start on a
// loaded machine (1s was not always enough under CI's parallel packages).
func TestOthersPrintedWhileOneHangs(t *testing.T) {
	dir := project(t)
	cfg := filepath.Join(dir, "hang.json")
	good, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName}})
	hung, _ := json.Marshal(map[string]any{"command": os.Args[0], "args": []string{ServeName, "--faults", "never-answer:server/discover,never-answer:initialize"}})
	write(t, cfg, `{"mcpServers": {"hung": `+string(hung)+`, "good": `+string(good)+`}}`)
	both := &syncBuffer{} // stdout and stderr in the order written
	r := runIO(t, t.Context(), &IOStreams{Out: both, ErrOut: both}, "resources", "--config", cfg, "--timeout", "5s")
	result, failure := strings.Index(both.String(), "== good\n"), strings.Index(both.String(), `cannot connect to server "hung" (`)
	if r.code != ExitConnect || result < 0 || failure < 0 || result > failure {
		t.Errorf("exit %d; want good's result before hung's failure:\n%s", r.code, both.String())
	}
}
