package cli

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The prompts are tested as a person meets them: mcpwire runs as its own
// process (this test binary re-executed, entering Run exactly as
// cmd/mcpwire's main does) on a real pseudo-terminal, and the test types
// keys and reads the screen.

// runAsMcpwire, set to 1 in the environment, makes the test binary run
// mcpwire's Run on its arguments (see TestMain).
const runAsMcpwire = "MCPWIRE_TEST_AS_MAIN"

// ptyDeadline bounds a wait for text on the screen: generous, since the
// machine may be busy; a test that passes never waits for it.
const ptyDeadline = 20 * time.Second

// Keys as a terminal sends them.
const (
	keyEnter = "\r"
	keyDown  = "\x1b[B"
	keyCtrlC = "\x03"
	keyCtrlD = "\x04"
	keyBack  = "\x7f"
	keyTab   = "\t"
)

// ptySession is mcpwire running on a pseudo-terminal.
type ptySession struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	buf  bytes.Buffer
	grew chan struct{} // signalled when buf grows or the output ends
	mark int           // expect looks at the screen text after this
	done chan struct{} // closed when the reader ends
	exit chan error    // the process's end
}

// startPty runs mcpwire with args on a new pseudo-terminal, with env
// added to the environment.
func startPty(t *testing.T, env []string, args ...string) *ptySession {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), runAsMcpwire+"=1", "TERM=xterm-256color", "NO_COLOR=1"), env...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 60, Cols: 160})
	if err != nil {
		t.Fatal(err)
	}
	s := &ptySession{t: t, cmd: cmd, tty: tty, grew: make(chan struct{}, 1), done: make(chan struct{}), exit: make(chan error, 1)}
	go s.read()
	go func() { s.exit <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
		tty.Close()
	})
	return s
}

func (s *ptySession) read() {
	defer close(s.done)
	b := make([]byte, 4096)
	for {
		n, err := s.tty.Read(b)
		s.mu.Lock()
		s.buf.Write(b[:n])
		s.mu.Unlock()
		select {
		case s.grew <- struct{}{}:
		default:
		}
		if err != nil {
			return // EIO once the process and its children closed the terminal
		}
	}
}

// ansi matches the terminal's control sequences, which the screen text
// leaves out.
var ansi = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]`)

// screen is everything written so far, as text.
func (s *ptySession) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.ReplaceAll(ansi.ReplaceAllString(s.buf.String(), ""), "\r", "")
}

// expect waits until text appears after the previous match, and moves
// the mark past it.
func (s *ptySession) expect(text string) {
	s.t.Helper()
	deadline := time.NewTimer(ptyDeadline)
	defer deadline.Stop()
	for {
		scr := s.screen()
		if i := strings.Index(scr[min(s.mark, len(scr)):], text); i >= 0 {
			s.mark += i + len(text)
			return
		}
		select {
		case <-s.grew:
		case <-s.done:
			if scr := s.screen(); !strings.Contains(scr[min(s.mark, len(scr)):], text) {
				s.t.Fatalf("the output ended without %q; after the last match:\n%s", text, screenTail(scr[min(s.mark, len(scr)):]))
			}
		case <-deadline.C:
			s.t.Fatalf("no %q on the screen; after the last match:\n%s", text, screenTail(scr[min(s.mark, len(scr)):]))
		}
	}
}

// screenTail is the end of a long screen.
func screenTail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// send types keys.
func (s *ptySession) send(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if _, err := s.tty.Write([]byte(k)); err != nil {
			s.t.Fatal(err)
		}
	}
}

// field waits until the form's field described by desc has the focus
// (huh marks it with a bar), then types keys into it.
func (s *ptySession) field(desc string, keys ...string) {
	s.t.Helper()
	s.expect("┃ " + desc)
	s.send(keys...)
}

// wait returns the exit code once mcpwire ends.
func (s *ptySession) wait() int {
	s.t.Helper()
	select {
	case err := <-s.exit:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(ptyDeadline):
		s.t.Fatalf("mcpwire did not end; screen:\n%s", screenTail(s.screen()))
		return -1
	}
}
