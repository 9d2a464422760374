package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// On a real terminal (a tmux pane, which is a pty) progress is one live
// line: redrawn in place with "\r" and erased before the result, so the
// screen ends with the result alone. tmux's wait-for channels sequence the
// steps, so nothing waits on a clock.
func TestLiveProgressOnATerminal(t *testing.T) {
	tm := startTmux(t)
	dir := t.TempDir()
	raw := filepath.Join(dir, "pane.raw")
	codeFile := filepath.Join(dir, "exit-code")
	script := strings.Join([]string{
		tm.shell("wait-for", "go"),
		quote(binary) + " call slow --arg steps=4 --arg delay_ms=50 -- " + quote(binary) + " __serve-mcptest",
		"echo $? > " + quote(codeFile),
		tm.shell("wait-for", "-S", "done"),
		"cat", // keep the pane, and its screen, until the server is killed
	}, "; ")
	tm.run("new-session", "-d", "-x", "100", "-y", "20", "-s", "live", script)
	tm.run("pipe-pane", "-t", "live", "-o", "cat > "+quote(raw)+"; "+tm.shell("wait-for", "-S", "piped"))
	tm.run("wait-for", "-S", "go")
	tm.run("wait-for", "done")
	screen := tm.run("capture-pane", "-p", "-t", "live")
	tm.run("pipe-pane", "-t", "live") // stop piping: cat sees EOF, writes the rest, signals
	tm.run("wait-for", "piped")

	code, err := os.ReadFile(codeFile)
	if err != nil || strings.TrimSpace(string(code)) != "0" {
		t.Fatalf("mcpwire exited %q (%v); screen:\n%s", code, err, screen)
	}
	bytes, err := os.ReadFile(raw)
	if err != nil {
		t.Fatal(err)
	}
	out := string(bytes)
	for _, want := range []string{
		"\r\x1b[Kslow [######..................] 1/4 (25%) step 1 of 4",
		"\r\x1b[Kslow [########################] 4/4 (100%) step 4 of 4",
		"\r\x1b[K",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("terminal output lacks %q:\n%q", want, out)
		}
	}
	if strings.Contains(out, "progress slow:") {
		t.Errorf("plain progress lines on a terminal:\n%q", out)
	}
	lines := nonEmptyLines(screen)
	if len(lines) != 1 || lines[0] != "done after 4 steps" {
		t.Errorf("screen should show only the result, the progress line erased:\n%s", screen)
	}
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimRight(l, " "); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// tmuxServer is a tmux server of the test's own, on its own socket.
type tmuxServer struct {
	t          *testing.T
	path, sock string
}

// startTmux prepares a tmux server for the test (it starts with the
// first session) and kills it when the test ends. Without tmux the test
// is skipped: a real terminal is what it needs.
func startTmux(t *testing.T) *tmuxServer {
	t.Helper()
	path, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: this needs a real terminal")
	}
	s := &tmuxServer{t: t, path: path, sock: filepath.Join(t.TempDir(), "tmux.sock")}
	t.Cleanup(func() { exec.Command(path, "-S", s.sock, "kill-server").Run() })
	return s
}

// run runs a tmux command against the server and returns its output.
func (s *tmuxServer) run(args ...string) string {
	s.t.Helper()
	cmd := exec.CommandContext(s.t.Context(), s.path, append([]string{"-S", s.sock, "-f", "/dev/null"}, args...)...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// shell is the shell command line that runs a tmux command against the
// server from inside a pane.
func (s *tmuxServer) shell(args ...string) string {
	line := quote(s.path) + " -S " + quote(s.sock)
	for _, a := range args {
		line += " " + quote(a)
	}
	return line
}

// quote makes s one word for sh.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
