package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/mcpwire/mcpwire/transport"
)

// Report prints err to io.ErrOut as one "mcpwire: ..." line (plus, for a
// connection failure, the server's last stderr lines) and returns the exit
// code for it. Registered secrets are masked. A nil err prints nothing.
func Report(ctx context.Context, io *IOStreams, err error) int {
	code := ExitCode(ctx, err)
	switch code {
	case ExitOK:
		return code
	case ExitInterrupted:
		fmt.Fprintln(io.ErrOut, "mcpwire: interrupted")
		return code
	}
	msg, tail := splitStderrTail(err)
	msg = cliWording(msg) + inputNote(err)
	// A server's words reach the terminal here: escape sequences in them
	// (a title change, a cleared screen) are taken out.
	fmt.Fprintf(io.ErrOut, "mcpwire: %s\n", Sanitize(oneLine(io.Redact(msg))))
	// With --verbose the server's stderr was on screen already.
	printStderrTail(io, tail)
	var conn *ConnectError
	if errors.As(err, &conn) && conn.Hint != "" {
		fmt.Fprintf(io.ErrOut, "mcpwire: hint: %s\n", Sanitize(io.Redact(conn.Hint)))
	}
	printInsecureHTTPHint(io, err)
	return code
}

// printStderrTail shows the end of a server's stderr as its lines, unless
// --verbose already copied it live.
func printStderrTail(io *IOStreams, tail string) {
	if io.stderrLive {
		return
	}
	writeStderrTail(io.ErrOut, io, tail)
}

// writeStderrTail writes the end of a server's stderr to w as its lines,
// under a heading; nothing when tail is empty.
func writeStderrTail(w io.Writer, streams *IOStreams, tail string) {
	if tail == "" {
		return
	}
	fmt.Fprintln(w, "server stderr (last lines):")
	for _, line := range strings.Split(strings.TrimRight(streams.Redact(tail), "\n"), "\n") {
		fmt.Fprintf(w, "  | %s\n", Sanitize(line))
	}
}

// splitStderrTail separates the message of err from the end of the
// server's stderr that explains it, so that the message stays one line and
// the tail is shown as the lines it is. A dead child's *transport.ExitError
// carries the tail inside its message; a ConnectError keeps what the
// server wrote before a failure that was not its exit.
func splitStderrTail(err error) (msg, tail string) {
	msg = err.Error()
	var exit *transport.ExitError
	if errors.As(err, &exit) && exit.StderrTail != "" {
		if cut := "; stderr:\n" + exit.StderrTail; strings.Contains(msg, cut) {
			msg = strings.Replace(msg, cut, "", 1)
		}
		return msg, exit.StderrTail
	}
	var conn *ConnectError
	if errors.As(err, &conn) {
		return msg, conn.StderrTail
	}
	return msg, ""
}

// oneLine folds a multi-line message (a server's error text may have
// several) into one line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " \u23ce ")), " ")
}

// cliWording adds the CLI's own way where the library names only the
// environment: an unset VS Code input can also be given with --input.
func cliWording(msg string) string {
	// The manager names its option; the command line sets it with
	// --timeout.
	msg = strings.Replace(msg, " (ConnectTimeout): ", " (raise --timeout, or set it to 0 to wait forever): ", 1)
	return missingInput.ReplaceAllString(msg, "${1} has no value; set ${3} or give --input ${2}=VALUE")
}

// missingInput matches config.MissingInputError's text: the input and its
// description, the id, and the environment variable.
var missingInput = regexp.MustCompile(`(input "([^"]*)"[^;]*?) has no value; the environment variable (\S+) supplies one`)
