package cli

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// The queries a program writes to learn about the terminal, each of which
// waits for the terminal's answer: its background colour (OSC 11) and the
// cursor's position (DSR 6).
var terminalQueries = []string{"\x1b]11;?", "\x1b[6n"}

// noTerminalQuery fails t if s wrote one of terminalQueries: on a terminal
// that does not answer (an expect harness, a pty with nothing behind it)
// such a query stalls the program until it gives up waiting.
func noTerminalQuery(t *testing.T, s *ptySession) {
	t.Helper()
	raw := s.Raw()
	for _, q := range terminalQueries {
		if strings.Contains(raw, q) {
			t.Errorf("mcpwire asked the terminal %q; it wrote:\n%q", q, screenTail(raw))
		}
	}
}

// A command that draws no TUI asks the terminal nothing: not at process
// start (bubbletea v1's init asked for the background colour in every
// process that linked it, and waited up to 5 s for the answer), not
// later; it ends once its output is complete. Its own process on a pty
// that answers nothing, as a harness's is.
func TestPtyPlainCommandsAskTheTerminalNothing(t *testing.T) {
	t.Parallel()
	hs := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
	for _, c := range []struct {
		name string
		args []string
		last string // the end of the command's output
	}{
		{"version", []string{"version"}, "MCP protocol versions:"},
		{"tools", []string{"tools", hs.URL}, "slow"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := startPty(t, nil, c.args...)
			s.Expect(c.last)
			// Wait's bound (ptytest.Deadline) only ends a failing test.
			if code := s.Wait(); code != 0 {
				t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
			}
			noTerminalQuery(t, s)
		})
	}
}

// The shell draws a TUI, yet asks the terminal nothing that it waits for:
// on a terminal that does not answer it still draws its prompt at once.
func TestPtyShellAsksTheTerminalNothing(t *testing.T) {
	t.Parallel()
	s := startPty(t, []string{"XDG_STATE_HOME=" + t.TempDir()}, append([]string{"shell"}, server()...)...)
	s.Prompt(shellPrompt)
	s.Send("help", keyEnter)
	s.Expect(shellPrompt + "help\n")
	// The list's last line, then the prompt waiting after it (a Ctrl-D
	// sent while help still runs would wait for it, as type-ahead).
	s.Expect("or Ctrl-D)\n")
	s.Prompt(shellPrompt)
	s.Send(keyCtrlD)
	if code := s.Wait(); code != 0 {
		t.Errorf("exit %d; screen:\n%s", code, screenTail(s.Screen()))
	}
	noTerminalQuery(t, s)
}
