package transport

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// ExitError is the terminal error Read returns when a stdio server exits or
// closes its stdout while the stream is open.
type ExitError struct {
	// Command is the configured command, without its arguments (which
	// may hold secrets).
	Command string
	// ExitCode is the exit code, or -1 when the process was killed by a
	// signal or is still running.
	ExitCode int
	// Signal names the signal that killed the process ("killed",
	// "terminated", …), or is empty.
	Signal string
	// Running is set when the server closed its stdout but had not
	// exited within CloseTimeout.
	Running bool
	// StderrTail is the end of the server's stderr: its last lines, at
	// most about 2 KiB, with any value of Command.Env (4 bytes or more)
	// replaced by "[redacted]".
	StderrTail string
}

func (e *ExitError) Error() string {
	var b strings.Builder
	switch {
	case e.Running:
		fmt.Fprintf(&b, "transport: server %q closed its stdout but is still running", e.Command)
	case e.Signal != "":
		fmt.Fprintf(&b, "transport: server %q was killed by signal: %s", e.Command, e.Signal)
	default:
		fmt.Fprintf(&b, "transport: server %q exited with status %d", e.Command, e.ExitCode)
	}
	if e.StderrTail == "" {
		b.WriteString(" (stderr was empty)")
	} else {
		b.WriteString("; stderr:\n")
		b.WriteString(e.StderrTail)
	}
	return b.String()
}

// Limits of ExitError.StderrTail.
const (
	tailMaxBytes = 2 << 10
	tailMaxLines = 20
)

// stderrTail returns the last lines of log, at most tailMaxLines lines and
// about tailMaxBytes bytes, starting at a line boundary where it can, with
// invalid UTF-8 replaced.
func stderrTail(log []byte) string {
	s := strings.TrimRight(string(log), " \t\r\n")
	cut := false
	if len(s) > tailMaxBytes {
		s = s[len(s)-tailMaxBytes:]
		cut = true
		// Start on a character: the end of one cut in two would show as
		// a replacement character.
		for i := 0; i < utf8.UTFMax-1 && len(s) > 0 && !utf8.RuneStart(s[0]); i++ {
			s = s[1:]
		}
		if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
	}
	lines := strings.Split(s, "\n")
	if len(lines) > tailMaxLines {
		lines = lines[len(lines)-tailMaxLines:]
		cut = true
	}
	s = strings.ToValidUTF8(strings.Join(lines, "\n"), "\uFFFD")
	if cut {
		s = "…\n" + s
	}
	return s
}

// envSecrets lists the values of env worth scrubbing (see scrubSecrets),
// nil when there are none, so that a child without secrets keeps no list.
func envSecrets(env map[string]string) []string {
	var out []string
	for _, v := range env {
		if len(v) >= minSecretLen {
			out = append(out, v)
		}
	}
	return out
}
