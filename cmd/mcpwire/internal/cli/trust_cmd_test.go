package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileProject makes the working directory a project whose .mcp.json
// has a stdio server that would leave a marker and an HTTP server whose
// header, URL and env carry ${VAR}s and a literal key; nothing of it is
// trusted. It returns the file and the marker.
func hostileProject(t *testing.T) (string, string) {
	t.Helper()
	dir := untrustedHome(t)
	marker := filepath.Join(dir, "ran")
	t.Setenv("MCPWIRE_TEST_SECRET", "sekrit-8d2e")
	stdio, _ := json.Marshal(map[string]any{"command": "sh", "args": []string{"-c", "touch " + marker, "x\x1b[2J"}, "env": map[string]string{"TOKEN": "${MCPWIRE_TEST_SECRET}"}})
	mcpJSON := `{"mcpServers": {
  "local": ` + string(stdio) + `,
  "remote": {"url": "https://api.example.com/mcp?key=literal-key-77&t=${MCPWIRE_TEST_SECRET}", "headers": {"X-Api-Key": "header-literal-55", "Authorization": "Bearer ${MCPWIRE_TEST_SECRET}"}}
}}`
	file := filepath.Join(dir, "proj", ".mcp.json")
	write(t, file, mcpJSON)
	t.Chdir(filepath.Dir(file))
	return file, marker
}

func noMarker(t *testing.T, marker string) {
	t.Helper()
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the untrusted command ran (marker: %v)", err)
	}
}

// servers lists an untrusted file's servers as untrusted, with the
// command that trusts them, and exits 0.
func TestServersListsUntrusted(t *testing.T) {
	file, marker := hostileProject(t)
	r := runIO(t, t.Context(), &IOStreams{Width: 300}, "servers").wantCode(t, ExitOK)
	if row := lines(r.out, "local "); len(row) != 1 || !strings.Contains(row[0], "untrusted") || !strings.Contains(row[0], file) {
		t.Errorf("local's row:\n%s", r.out)
	}
	if !strings.Contains(r.out, `local: untrusted: `+file) || !strings.Contains(r.out, `"mcpwire trust `+file+`"`) {
		t.Errorf("no trust command shown:\n%s", r.out)
	}
	r = run(t, "servers", "--json").wantCode(t, ExitOK)
	var v struct {
		Servers []struct {
			Name, State, Error string
			Tools              *int
			Source             struct {
				Scope     string
				Untrusted bool
			}
		}
	}
	if err := json.Unmarshal([]byte(r.out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Servers) != 2 || v.Servers[0].State != "untrusted" || v.Servers[0].Source.Scope != "project" || !v.Servers[0].Source.Untrusted || !strings.Contains(v.Servers[0].Error, "mcpwire trust") {
		t.Errorf("--json: %+v", v.Servers)
	}
	if len(v.Servers) > 0 && v.Servers[0].Tools != nil {
		t.Errorf("--json gives an untrusted server, never asked, %d tools", *v.Servers[0].Tools)
	}
	// Signing in would send the file's oauth settings to its URL.
	for _, cmd := range []string{"login", "logout"} {
		r = run(t, cmd, "remote").wantCode(t, ExitUsage)
		if !strings.Contains(r.err, "mcpwire trust "+file) {
			t.Errorf("%s of an untrusted server: %q", cmd, r.err)
		}
	}
	noMarker(t, marker)
}

// trust shows what would run and be read, never a value, and approves
// only on a yes.
func TestTrustShowsAndAsks(t *testing.T) {
	file, marker := hostileProject(t)
	yes := func(*IOStreams) bool { return true }
	for _, answer := range []string{"", "n\n", "yes please\n"} {
		o := &trustOptions{interactive: yes}
		r := runTrust(t, o, answer)
		if r.code != ExitError || !strings.Contains(r.err, "not approved") {
			t.Errorf("answer %q: exit %d, stderr %q", answer, r.code, r.err)
		}
	}
	r := run(t, "tools")
	if r.code != ExitUsage || !strings.Contains(r.err, "mcpwire trust "+file) || strings.Contains(r.err, "Run 'mcpwire help") {
		t.Errorf("tools after a no: exit %d, stderr %q", r.code, r.err)
	}

	r = runTrust(t, &trustOptions{interactive: yes}, "y\n")
	if r.code != ExitOK || !strings.Contains(r.err, "[y/N]") {
		t.Fatalf("answer y: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.err)
	}
	for _, want := range []string{
		"    command:  sh\n",
		"    args:     -c \"touch " + marker + "\" x",
		"    env:      TOKEN\n",
		"    reads:    MCPWIRE_TEST_SECRET\n",
		"    url:      https://api.example.com/mcp (query: key, t)\n",
		"    headers:  Authorization, X-Api-Key\n",
	} {
		if !strings.Contains(r.out, want) {
			t.Errorf("trust output lacks %q:\n%s", want, r.out)
		}
	}
	for _, secret := range []string{"sekrit-8d2e", "literal-key-77", "header-literal-55", "\x1b"} {
		if strings.Contains(r.out+r.err, secret) {
			t.Errorf("trust showed %q:\n%s%s", secret, r.out, r.err)
		}
	}
	r = run(t, "trust", filepath.Base(file)).wantCode(t, ExitOK)
	if !strings.Contains(r.out, "trusted already") {
		t.Errorf("a second trust: %q", r.out)
	}
	noMarker(t, marker)
}

// runTrust runs the trust command with o and stdin answer.
func runTrust(t *testing.T, o *trustOptions, answer string) result {
	t.Helper()
	out, errOut := &syncBuffer{}, &syncBuffer{}
	streams := &IOStreams{In: strings.NewReader(answer), Out: out, ErrOut: errOut}
	err := o.Run(t.Context(), streams, Parsed{})
	code := Report(t.Context(), streams, err)
	return result{out: out.String(), err: errOut.String(), code: code}
}
