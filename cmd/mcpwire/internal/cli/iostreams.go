package cli

import (
	"encoding/json"
	"io"
	"os"

	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/inspect"
	"github.com/mcpwire/mcpwire/transport"
)

// IOStreams are the streams a command reads and writes. Commands never touch
// os.Stdin, os.Stdout or os.Stderr directly, so tests run them in-process
// with buffers.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// IsTerminal reports that ErrOut is an interactive terminal. Progress is
	// then drawn as one live line rewritten with "\r"; otherwise each update
	// is a plain line, which is what logs and pipes want.
	IsTerminal bool
	// OutIsTerminal reports that Out is one too; when it is not (a shell
	// whose stdout goes to a file), results go there rather than to the
	// terminal.
	OutIsTerminal bool
	// Width is the number of columns tables may use: the terminal's when
	// stdout is one, else $COLUMNS when set. Zero means no limit, so that
	// a pipe gets every character.
	Width int
	// Prompter asks the person at the terminal (prompter.go); nil when
	// there is no one to ask, and flags answer instead.
	Prompter Prompter

	// secrets are masked by Redact and in all output; see AddSecret.
	secrets *secretSet
	// clock times the live elapsed line of a call; nil is the system
	// clock (see clock.go).
	clock clock
	// stderrLive is set once a server's stderr is copied to ErrOut
	// (--verbose), so Report does not repeat it.
	stderrLive bool
	// protocolOut is stdout before Main's masking, for serve --stdio: its
	// stdout carries JSON-RPC, whose strings the gateway masks one by one
	// (Options.Redact); a mask over the bytes could turn a number that
	// equals a secret (a request id) into "***" and the line into one no
	// host can read. Nil outside Main.
	protocolOut io.Writer
	// heldStderr are the configured servers' live stderr copies, whose
	// unfinished last lines Main writes when the command is done.
	heldStderr *heldLines
	// recording is the --record file, closed when the command ends.
	recording *recording
	// wireTap records every server's messages for mcpwire inspect's
	// wire log (inspect.go); nil for the other commands.
	wireTap *transport.Recorder
	// stderrTails keep each configured server's stderr tail for mcpwire
	// inspect's page; nil for the other commands.
	stderrTails *serverTails
	// clientExtensions are declared by every client the command connects
	// (mcpwire inspect's MCP Apps); nil for the other commands.
	clientExtensions map[string]json.RawMessage
	// inspectHooks answers the configured servers' questions from mcpwire
	// inspect's page; nil for the other commands.
	inspectHooks *inspect.Hooks
	// gatewayRelay hands the configured servers' questions to the host
	// whose call caused them (mcpwire serve); nil for the other commands.
	gatewayRelay *gateway.Relay
	// inspectWire is mcpwire inspect's timeline, told of each HTTP
	// exchange; nil for the other commands.
	inspectWire *inspect.Wire
	// limitProcs caps the Go scheduler at n processors unless the user
	// chose a number (GOMAXPROCS); see procs.go. Nil leaves the process
	// as it is, as in tests that run commands in process.
	limitProcs func(n int)
}

// DefaultWidth is the width of a terminal whose size cannot be read.
const DefaultWidth = 80

// System returns the process's own streams, with IsTerminal and Width
// detected from the real file descriptors.
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr, limitProcs: limitProcs}
	s.IsTerminal = isTerminal(os.Stderr)
	s.Prompter = terminalPrompter()
	if s.OutIsTerminal = isTerminal(os.Stdout); s.OutIsTerminal {
		if s.Width = terminalWidth(os.Stdout); s.Width == 0 {
			s.Width = DefaultWidth
		}
	} else {
		s.Width = columnsEnv()
	}
	return s
}

// TableWidth is the width tables are cut to; 0 means never cut.
func (s *IOStreams) TableWidth() int {
	return max(s.Width, 0)
}

// isTerminal reports whether f is a character device, the stdlib-only test
// for "this is a terminal" (a tty is a character device; pipes and regular
// files are not). /dev/null is one too, which only costs a few "\r".
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeCharDevice != 0
}
