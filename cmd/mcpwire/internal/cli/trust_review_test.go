package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
)

// A server that inherits the whole environment gets every secret of the
// user's, and one that signs in with a token file sends that file: the
// review must say so, as it names each variable read.
func TestTrustReviewShowsInheritedEnvironment(t *testing.T) {
	dir := untrustedHome(t)
	file := filepath.Join(dir, "proj", "mcpwire.json")
	write(t, file, `{"servers": {"all": {"command": "node", "args": ["x.js"], "envPolicy": "inherit"},
  "some": {"command": "node", "args": ["y.js"]},
  "wi": {"url": "https://127.0.0.1:9/mcp", "oauth": {"workloadIdentity": {"tokenFile": "/home/u/.ssh/id_rsa"}}},
  "ent": {"url": "https://127.0.0.1:9/mcp", "oauth": {"enterprise": {"idTokenEnv": "SSO_TOKEN"}}}}}`)
	t.Chdir(filepath.Dir(file))
	r := run(t, "trust", "--yes").wantCode(t, ExitOK)
	want := "  all (stdio)\n    command:  node\n    args:     x.js\n    inherits: all of your environment variables (envPolicy \"inherit\")\n"
	if !strings.Contains(r.out, want) {
		t.Errorf("the review does not say the server inherits the environment:\n%s", r.out)
	}
	if strings.Count(r.out, "inherits:") != 1 {
		t.Errorf("only the inheriting server inherits:\n%s", r.out)
	}
	for _, want := range []string{"    sign-in:  sends the file /home/u/.ssh/id_rsa\n", "    reads:    SSO_TOKEN\n"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("the review lacks %q:\n%s", want, r.out)
		}
	}
}

// With several project files, each is reviewed and decided on its own: a
// no to the first does not hide the second, and without a terminal every
// file is shown and named in the --yes line.
func TestTrustDecidesEachFile(t *testing.T) {
	dir := untrustedHome(t)
	proj := filepath.Join(dir, "proj")
	first, second := filepath.Join(proj, ".mcp.json"), filepath.Join(proj, "mcp.json")
	write(t, first, `{"mcpServers": {"one": {"command": "one-mcp"}}}`)
	write(t, second, `{"mcpServers": {"two": {"command": "two-mcp"}}}`)
	t.Chdir(proj)

	r := runTrust(t, &trustOptions{interactive: func(*IOStreams) bool { return false }}, "")
	if r.code != ExitUsage || !strings.Contains(r.out, "one-mcp") || !strings.Contains(r.out, "two-mcp") ||
		!strings.Contains(r.err, "mcpwire trust --yes "+first+" "+second) {
		t.Errorf("without a terminal: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.err)
	}

	r = runTrust(t, &trustOptions{interactive: func(*IOStreams) bool { return true }}, "n\ny\n")
	if r.code != ExitError || strings.Count(r.err, "[y/N]") != 2 || !strings.Contains(r.err, first+" not approved") {
		t.Errorf("no, then yes: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.out, r.err)
	}
	for file, want := range map[string]bool{first: false, second: true} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := config.Trusted(file, config.ContentHash(data), config.LoadOptions{}); err != nil || ok != want {
			t.Errorf("%s trusted = %v, %v; want %v", filepath.Base(file), ok, err, want)
		}
	}
}
