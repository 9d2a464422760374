// Package ptytest runs a command on a real pseudo-terminal for tests, as a
// person meets it: the test types keys and reads the screen as text. The
// CLI's tests and the interop modules' tests of the built command share it.
package ptytest

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

// Deadline bounds a wait for text on the screen or for the command's end:
// generous, since the machine may be busy; a test that passes never waits
// for it. 20 s was too tight: a huh form of 13 fields redraws whole on
// every key, which under -race on a loaded 2-core machine (load 13) took
// up to ~1.5 s a key, and a wait after a dozen keys took 19 s.
const Deadline = 60 * time.Second

// Keys as a terminal sends them.
const (
	Enter = "\r"
	Down  = "\x1b[B"
	CtrlA = "\x01" // to the line's start
	CtrlC = "\x03"
	CtrlD = "\x04"
	Back  = "\x7f"
	Tab   = "\t"
)

// Session is a command running on a pseudo-terminal.
type Session struct {
	t    testing.TB
	tty  *os.File
	mu   sync.Mutex
	buf  bytes.Buffer
	scr  *screen       // buf as the terminal shows it
	grew chan struct{} // signalled when buf grows or the output ends
	// Expect looks at the screen after the previous match (mark bytes
	// into marked, the screen then), or from where the screen has been
	// redrawn since, if that is before it.
	mark   int
	marked string
	done   chan struct{} // closed when the reader ends
	exit   chan error    // the process's end
}

// Start runs cmd on a new pseudo-terminal of 60 rows and 160 columns. The
// command is killed when the test ends.
func Start(t testing.TB, cmd *exec.Cmd) *Session {
	t.Helper()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: rows, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	s := &Session{t: t, tty: tty, scr: newScreen(), grew: make(chan struct{}, 1), done: make(chan struct{}), exit: make(chan error, 1)}
	go s.read()
	go func() { s.exit <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.done
		tty.Close()
	})
	return s
}

func (s *Session) read() {
	defer close(s.done)
	b := make([]byte, 4096)
	for {
		n, err := s.tty.Read(b)
		s.mu.Lock()
		s.buf.Write(b[:n])
		s.scr.feed(b[:n])
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

// controls matches the terminal's control sequences, which the screen
// text leaves out.
var controls = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]|\x1b[=>78]`)

// Screen is the text the terminal shows, those lines scrolled off the
// top included: what was written, with the cursor movements and erasures
// applied, so that a line redrawn in pieces reads whole and a line
// redrawn in place reads as it ends up.
func (s *Session) Screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scr.text()
}

// Written is everything written so far with the control sequences left
// out, erased text included: what a check that something was never shown
// reads.
func (s *Session) Written() string {
	return strings.ReplaceAll(controls.ReplaceAllString(s.Raw(), ""), "\r", "")
}

// Raw is every byte written so far, control sequences included.
func (s *Session) Raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// Tail is the end of a long screen, for a failure message.
func Tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

// Expect waits until text appears on the screen after the previous
// match, and moves the mark past it. Where the screen has been drawn
// again before the mark since (a prompt redrawn, a line printed above it,
// a form erased), the search starts at the beginning of the first line
// that changed.
func (s *Session) Expect(text string) {
	s.t.Helper()
	deadline := time.NewTimer(Deadline)
	defer deadline.Stop()
	for {
		scr := s.Screen()
		from := s.markFrom(scr)
		if i := strings.Index(scr[from:], text); i >= 0 {
			s.mark, s.marked = from+i+len(text), scr
			return
		}
		select {
		case <-s.grew:
		case <-s.done:
			if scr := s.Screen(); !strings.Contains(scr[s.markFrom(scr):], text) {
				s.t.Fatalf("the output ended without %q; after the last match:\n%s", text, Tail(scr[s.markFrom(scr):]))
			}
		case <-deadline.C:
			s.t.Fatalf("no %q on the screen; after the last match:\n%s", text, Tail(scr[from:]))
		}
	}
}

// Prompt waits until the program waits for a new line at prompt: the
// screen's last line reads prompt with nothing typed after it, and that
// line ends after the previous match. Expect(prompt) is not enough
// there: where a redraw moves the search back, it can match the prompt
// echoed with an earlier command ("mcpwire> tools") while that command
// still runs, and keys that need the prompt (Tab, Ctrl-D) would then go
// out too early.
func (s *Session) Prompt(prompt string) {
	s.t.Helper()
	want := strings.TrimRight(prompt, " ")
	deadline := time.NewTimer(Deadline)
	defer deadline.Stop()
	ended := false
	for {
		scr := s.Screen()
		from := s.markFrom(scr)
		// The cursor's cell and the lines below it read as blanks.
		end := len(strings.TrimRight(scr, " \n"))
		start := strings.LastIndexByte(scr[:end], '\n') + 1
		if scr[start:end] == want && end >= from {
			// The mark at the line's start: what is typed next is
			// looked for with the prompt before it.
			s.mark, s.marked = start, scr
			return
		}
		if ended {
			s.t.Fatalf("the output ended without the prompt %q; after the last match:\n%s", prompt, Tail(scr[from:]))
		}
		select {
		case <-s.grew:
		case <-s.done:
			ended = true // look once more at all that was written
		case <-deadline.C:
			s.t.Fatalf("no prompt %q waiting on the screen's last line; after the last match:\n%s", prompt, Tail(scr[from:]))
		}
	}
}

// markFrom is where in scr Expect looks next: the mark, or the start of
// the first line up to the mark's that differs from the screen at the
// mark (a line typed on further is looked at whole again).
func (s *Session) markFrom(scr string) int {
	before := s.marked
	if i := strings.IndexByte(before[s.mark:], '\n'); i >= 0 {
		before = before[:s.mark+i]
	}
	if strings.HasPrefix(scr, before) {
		return s.mark
	}
	same := 0
	for same < len(before) && same < len(scr) && before[same] == scr[same] {
		same++
	}
	return strings.LastIndexByte(scr[:same], '\n') + 1
}

// Send types keys.
func (s *Session) Send(keys ...string) {
	s.t.Helper()
	for _, k := range keys {
		if _, err := s.tty.Write([]byte(k)); err != nil {
			s.t.Fatal(err)
		}
	}
}

// Field waits until the form's field described by desc has the focus
// (huh marks it with a bar), then types keys into it. Keys sent ahead
// could land on another field: huh moves the focus between key presses.
func (s *Session) Field(desc string, keys ...string) {
	s.t.Helper()
	s.Expect("┃ " + desc)
	s.Send(keys...)
}

// Wait returns the exit code once the command ends.
func (s *Session) Wait() int {
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
	case <-time.After(Deadline):
		s.t.Fatalf("the command did not end; screen:\n%s", Tail(s.Screen()))
		return -1
	}
}
