package cli

import (
	"os"
	"os/exec"
	"testing"

	"github.com/mcpwire/mcpwire/internal/ptytest"
)

// The prompts are tested as a person meets them: mcpwire runs as its own
// process (this test binary re-executed, entering Run exactly as
// cmd/mcpwire's main does) on a real pseudo-terminal, and the test types
// keys and reads the screen (ptytest).

// runAsMcpwire, set to 1 in the environment, makes the test binary run
// mcpwire's Run on its arguments (see TestMain).
const runAsMcpwire = "MCPWIRE_TEST_AS_MAIN"

// Keys as a terminal sends them.
const (
	keyEnter = ptytest.Enter
	keyDown  = ptytest.Down
	keyCtrlA = ptytest.CtrlA
	keyCtrlC = ptytest.CtrlC
	keyCtrlD = ptytest.CtrlD
	keyBack  = ptytest.Back
	keyTab   = ptytest.Tab
)

// ptySession is mcpwire running on a pseudo-terminal.
type ptySession = ptytest.Session

// screenTail is the end of a long screen.
var screenTail = ptytest.Tail

// startPty runs mcpwire with args on a new pseudo-terminal, with env
// added to the environment.
func startPty(t *testing.T, env []string, args ...string) *ptySession {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), runAsMcpwire+"=1", "TERM=xterm-256color", "NO_COLOR=1"), env...)
	return ptytest.Start(t, cmd)
}
