package gosdks_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/mcpwire/mcpwire/internal/ptytest"
)

// The built mcpwire command on a real pseudo-terminal, as a person meets
// it, against a go-sdk server of the 2026-07-28 era: the server's tool
// asks for a form through an input-required result (MRTR), and the person
// answers it at the terminal, in a one-shot call and inside the shell.
func TestCLIPtyElicitModern(t *testing.T) {
	bin := buildCLI(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	server := []string{"--protocol", modernVersion, "--", exe, serverArg + "go-sdk-modern"}

	t.Run("call", func(t *testing.T) {
		t.Parallel()
		s := startTerminal(t, bin, append([]string{"call", toolConfirm}, server...)...)
		s.Expect("the server asks:")
		s.Expect(confirmMessage)
		s.Expect("fill in the form and send it")
		s.Send(ptytest.Enter)
		s.Expect("┃ ok")
		s.Send("n") // no, against the default
		s.Expect("accept ok=false")
		if code := s.Wait(); code != 0 {
			t.Errorf("exit %d; screen:\n%s", code, s.Screen())
		}
	})

	t.Run("shell", func(t *testing.T) {
		t.Parallel()
		s := startTerminal(t, bin, append([]string{"shell"}, server...)...)
		s.Prompt("mcpwire> ")
		s.Send("call "+toolConfirm, ptytest.Enter)
		s.Expect(confirmMessage)
		s.Expect("fill in the form and send it")
		s.Send(ptytest.Down, ptytest.Enter) // decline
		s.Expect("decline ok=<nil>")
		s.Prompt("mcpwire> ")
		s.Send("call "+toolConfirm, ptytest.Enter)
		s.Expect("fill in the form and send it")
		s.Send(ptytest.Enter)
		s.Expect("┃ ok")
		s.Send("n")
		s.Expect("accept ok=false")
		s.Prompt("mcpwire> ")
		s.Send(ptytest.CtrlD)
		if code := s.Wait(); code != 0 {
			t.Errorf("exit %d; screen:\n%s", code, s.Screen())
		}
	})
}

// startTerminal runs bin with args on a new pseudo-terminal, its shell
// history kept in a directory of the test's.
func startTerminal(t *testing.T, bin string, args ...string) *ptytest.Session {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1", "XDG_STATE_HOME="+t.TempDir())
	return ptytest.Start(t, cmd)
}
