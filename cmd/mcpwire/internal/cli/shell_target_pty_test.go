package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/ptytest"
)

// A shell on a TARGET whose server dies says so above the prompt at
// once, and the next command starts it again; until then no stale list is
// offered as the server's.
func TestPtyShellServerDiesAndComesBack(t *testing.T) {
	t.Parallel()
	s := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, append([]string{"shell"}, server("crash:echo")...)...)
	s.Prompt(shellPrompt)
	s.Send("call echo message=bye", keyEnter)
	// The notice and the call's error print in either order.
	s.Expect("; the next command connects again\n")
	s.Send("call add a=2 b=40", keyEnter)
	s.Expect(shellPrompt + "call add a=2 b=40\n")
	s.Expect(" again\n") // "mcpwire: connected to ... again"
	s.Expect("42\n")
	if screen := s.Screen(); !strings.Contains(screen, "crashing on purpose") || !strings.Contains(screen, "ended: ") {
		t.Errorf("the call's error or the notice's reason is missing; screen:\n%s", screenTail(screen))
	}
	s.Send("exit", keyEnter)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
}

// Values with spaces are quoted as in a shell; a one-shot flag that the
// shell would ignore is refused; advice is given in the shell's syntax;
// exit with words after it says so.
func TestPtyShellWords(t *testing.T) {
	t.Parallel()
	s := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, append([]string{"shell"}, server()...)...)
	s.Prompt(shellPrompt)
	s.Send(`call echo message="hello shell world"`, keyEnter)
	s.Expect("hello shell world\n")
	s.Send(`call echo message="open`, keyEnter)
	s.Expect(`mcpwire: the " at column 19 is not closed`)
	s.Send("info --record x.jsonl", keyEnter)
	s.Expect("mcpwire: info takes no flags in the shell (--record)")
	s.Send("call echo", keyEnter)
	s.Expect(`missing required argument "message": add message=VALUE`)
	s.Send("tools nosuch", keyEnter)
	s.Expect(`(tools lists them)`)
	s.Send("exit now", keyEnter)
	s.Expect("mcpwire: exit takes no arguments")
	s.Send("quit", keyEnter)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
}

// With stdout sent to a file, the results go there, as the one-shot
// commands' do, and the prompt stays on the terminal.
func TestPtyShellResultsFollowStdout(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "results.txt")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cmd := exec.Command(os.Args[0], append([]string{"shell"}, server()...)...)
	cmd.Env = append(os.Environ(), runAsMcpwire+"=1", "TERM=xterm-256color", "NO_COLOR=1", "XDG_STATE_HOME="+t.TempDir())
	cmd.Stdout = f
	s := ptytest.Start(t, cmd)
	s.Prompt(shellPrompt)
	s.Send("call echo message=to-the-file", keyEnter)
	s.Send("call add a=2 b=40", keyEnter)
	s.Expect(shellPrompt + "call add a=2 b=40\n")
	s.Send("exit", keyEnter)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
	if got, err := os.ReadFile(out); err != nil || string(got) != "to-the-file\n42\n" {
		t.Errorf("stdout got %q, %v; want both results", got, err)
	}
}
