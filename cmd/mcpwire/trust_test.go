package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// clonedRepo is a directory as a cloned repository leaves it: a .mcp.json
// whose server first leaves a marker file (the proof that its command
// ran) and then serves the example server, and whose env carries a
// secret of the user's environment through ${VAR}. The user's home and
// state are private to the test.
type clonedRepo struct {
	t       *testing.T
	dir     string
	marker  string
	mcpJSON string
	// private are the variables that make the user's home and state the
	// test's own; env is the process environment with them.
	private []string
	env     []string
}

const userSecret = "user-secret-9c1d"

func newClonedRepo(t *testing.T) *clonedRepo {
	root := t.TempDir()
	r := &clonedRepo{t: t, dir: filepath.Join(root, "repo"), marker: filepath.Join(root, "ran")}
	home := filepath.Join(root, "home")
	r.private = []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"MCPWIRE_TRUST_PROJECT=",
		"MCPWIRE_TEST_USER_SECRET=" + userSecret,
	}
	r.env = append(os.Environ(), r.private...)
	server, _ := json.Marshal(map[string]any{
		"command": "sh",
		"args":    []string{"-c", `printf '%s' "$LEAK" > "$1" && exec "$2" __serve-mcptest`, "sh", r.marker, binary},
		"env":     map[string]string{"LEAK": "${MCPWIRE_TEST_USER_SECRET}"},
	})
	r.write(`{"mcpServers": {"repo": ` + string(server) + `}}`)
	return r
}

func (r *clonedRepo) write(mcpJSON string) {
	r.t.Helper()
	r.mcpJSON = mcpJSON
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, ".mcp.json"), []byte(mcpJSON), 0o600); err != nil {
		r.t.Fatal(err)
	}
}

// run runs the real mcpwire in the repository and returns its exit code,
// stdout and stderr.
func (r *clonedRepo) run(args ...string) (int, string, string) {
	r.t.Helper()
	cmd := exec.CommandContext(r.t.Context(), binary, args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := exitCode(r.t, cmd.Run())
	if strings.Contains(stdout.String()+stderr.String(), userSecret) {
		r.t.Errorf("mcpwire %v showed the user's secret:\n%s%s", args, stdout.String(), stderr.String())
	}
	return code, stdout.String(), stderr.String()
}

// ran reports whether the project's command ran, and what it got of the
// secret.
func (r *clonedRepo) ran() (bool, string) {
	r.t.Helper()
	b, err := os.ReadFile(r.marker)
	if errors.Is(err, os.ErrNotExist) {
		return false, ""
	}
	if err != nil {
		r.t.Fatal(err)
	}
	return true, string(b)
}

// wantRefused checks a command that would use the untrusted server:
// exit status 2 and one line naming the file and "mcpwire trust".
func (r *clonedRepo) wantRefused(args ...string) {
	r.t.Helper()
	code, _, stderr := r.run(args...)
	file := filepath.Join(r.dir, ".mcp.json")
	if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, file) || !strings.Contains(stderr, "mcpwire trust "+file) {
		r.t.Errorf("mcpwire %v: exit %d, want 2 and one line naming %s and mcpwire trust; stderr:\n%s", args, code, file, stderr)
	}
	if ran, _ := r.ran(); ran {
		r.t.Fatalf("mcpwire %v ran the untrusted project's command", args)
	}
}

// A cloned repository's config runs nothing and reads no secret until
// the user trusts it; trusted, it works; edited, it is untrusted again.
func TestClonedRepositoryIsUntrustedUntilApproved(t *testing.T) {
	r := newClonedRepo(t)

	code, out, stderr := r.run("servers")
	if code != 0 || !strings.Contains(out, "untrusted") || !strings.Contains(out, "mcpwire trust "+filepath.Join(r.dir, ".mcp.json")) {
		t.Errorf("servers: exit %d, want 0 and the server listed untrusted with the trust command\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if ran, _ := r.ran(); ran {
		t.Fatal("servers ran the untrusted project's command")
	}
	r.wantRefused("tools")
	r.wantRefused("call", "repo/echo", "--arg", "message=hi")
	r.wantRefused("call", "mcp__repo__echo", "--arg", "message=hi")
	r.wantRefused("ping", "repo")
	r.wantRefused("read", "demo://x")
	r.wantRefused("call", "echo", "--arg", "message=hi")
	r.wantRefused("watch")

	// trust without --yes and without a terminal shows and refuses.
	code, out, stderr = r.run("trust")
	if code != 2 || !strings.Contains(out, "command:  sh") || !strings.Contains(out, "reads:    MCPWIRE_TEST_USER_SECRET") || !strings.Contains(out, "env:      LEAK") || !strings.Contains(stderr, "--yes") {
		t.Errorf("trust without --yes: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	r.wantRefused("tools")

	code, out, stderr = r.run("trust", "--yes")
	if code != 0 || !strings.Contains(out, "Trusted "+filepath.Join(r.dir, ".mcp.json")) {
		t.Fatalf("trust --yes: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if ran, _ := r.ran(); ran {
		t.Fatal("trust ran the project's command")
	}
	code, out, stderr = r.run("call", "repo/echo", "--arg", "message=hi")
	if code != 0 || out != "hi\n" {
		t.Fatalf("call after trust: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if ran, leaked := r.ran(); !ran || leaked != userSecret {
		t.Errorf("after trust the command ran %v with the variable expanded to %q", ran, leaked)
	}

	// An edit, even a small one, needs a new approval.
	if err := os.Remove(r.marker); err != nil {
		t.Fatal(err)
	}
	r.write(strings.Replace(r.mcpJSON, `"repo"`, `"repo2"`, 1))
	r.wantRefused("call", "repo2/echo", "--arg", "message=hi")
	code, out, _ = r.run("servers")
	if code != 0 || !strings.Contains(out, "untrusted") {
		t.Errorf("servers after an edit: exit %d\n%s", code, out)
	}

	// Named with --config, or with MCPWIRE_TRUST_PROJECT=1, it is trusted.
	code, out, stderr = r.run("call", "repo2/echo", "--arg", "message=named", "--config", ".mcp.json")
	if code != 0 || out != "named\n" {
		t.Errorf("--config: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	os.Remove(r.marker)
	r.env = append(r.env, "MCPWIRE_TRUST_PROJECT=1")
	code, out, stderr = r.run("call", "repo2/echo", "--arg", "message=ci")
	if code != 0 || out != "ci\n" {
		t.Errorf("MCPWIRE_TRUST_PROJECT=1: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if ran, _ := r.ran(); !ran {
		t.Error("MCPWIRE_TRUST_PROJECT=1 did not run the server")
	}
}

// A project file that does not parse is reported before anyone trusts
// it, with its line and column: reading its syntax runs nothing, and
// "(no servers configured)" would send the user looking elsewhere.
func TestBrokenProjectFileIsReportedUntrusted(t *testing.T) {
	r := newClonedRepo(t)
	r.write("{\n \"mcpServers\": {\n  \"a\": {\"command\": \"x\"}\n  \"b\": 3\n")
	file := filepath.Join(r.dir, ".mcp.json")
	for _, args := range [][]string{{"servers"}, {"tools"}, {"watch"}} {
		code, out, stderr := r.run(args...)
		if code != 2 || !strings.Contains(stderr, file+":4:3: invalid JSON") {
			t.Errorf("mcpwire %v: exit %d, want 2 and the file's line and column\nstdout:\n%s\nstderr:\n%s", args, code, out, stderr)
		}
	}
}

// On a real terminal (a tmux pane) trust asks, and a "y" typed there
// approves the file; the server then runs.
func TestTrustAsksOnATerminal(t *testing.T) {
	r := newClonedRepo(t)
	tm := startTmux(t)
	codeFile := filepath.Join(t.TempDir(), "exit-code")
	env := "env"
	for _, kv := range r.private {
		env += " " + quote(kv)
	}
	script := strings.Join([]string{
		"cd " + quote(r.dir),
		tm.shell("wait-for", "go"),
		env + " " + quote(binary) + " trust",
		"echo $? > " + quote(codeFile),
		tm.shell("wait-for", "-S", "done"),
		"cat",
	}, "; ")
	tm.run("new-session", "-d", "-x", "200", "-y", "40", "-s", "live", script)
	tm.run("wait-for", "-S", "go")
	// Typed ahead: the terminal keeps the line until trust reads it.
	tm.run("send-keys", "-t", "live", "y", "Enter")
	tm.run("wait-for", "done")
	screen := tm.run("capture-pane", "-p", "-t", "live")
	code, err := os.ReadFile(codeFile)
	if err != nil || strings.TrimSpace(string(code)) != "0" || !strings.Contains(screen, "[y/N]") || !strings.Contains(screen, "Trusted ") {
		t.Fatalf("trust on a terminal exited %q (%v); screen:\n%s", code, err, screen)
	}
	if ran, _ := r.ran(); ran {
		t.Fatal("trust ran the project's command")
	}
	if code, out, stderr := r.run("call", "repo/echo", "--arg", "message=hi"); code != 0 || out != "hi\n" {
		t.Fatalf("call after trust on a terminal: exit %d\n%s%s", code, out, stderr)
	}
}
