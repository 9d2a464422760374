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
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("tmux is not installed: the live progress line needs a real terminal to be tested")
	}
	dir := t.TempDir()
	sock := filepath.Join(dir, "tmux.sock")
	raw := filepath.Join(dir, "pane.raw")
	codeFile := filepath.Join(dir, "exit-code")
	tm := func(args ...string) string {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), tmux, append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		cmd.Env = append(os.Environ(), "TERM=xterm-256color")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %q: %v\n%s", args, err, out)
		}
		return string(out)
	}
	script := strings.Join([]string{
		quote(tmux) + " -S " + quote(sock) + " wait-for go",
		quote(binary) + " call slow --arg steps=4 --arg delay_ms=50 -- " + quote(binary) + " __serve-mcptest",
		"echo $? > " + quote(codeFile),
		quote(tmux) + " -S " + quote(sock) + " wait-for -S done",
		"cat", // keep the pane, and its screen, until the server is killed
	}, "; ")
	tm("new-session", "-d", "-x", "100", "-y", "20", "-s", "live", script)
	defer exec.Command(tmux, "-S", sock, "kill-server").Run()
	tm("pipe-pane", "-t", "live", "-o", "cat > "+quote(raw)+"; "+quote(tmux)+" -S "+quote(sock)+" wait-for -S piped")
	tm("wait-for", "-S", "go")
	tm("wait-for", "done")
	screen := tm("capture-pane", "-p", "-t", "live")
	tm("pipe-pane", "-t", "live") // stop piping: cat sees EOF, writes the rest, signals
	tm("wait-for", "piped")

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

// quote makes s one word for sh.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
