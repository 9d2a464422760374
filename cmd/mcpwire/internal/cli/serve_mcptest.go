package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/mcpwire/mcpwire/mcptest"
)

// ServeName is the hidden command that runs the built-in example server on
// stdin and stdout; "mcpwire demo" starts the mcpwire binary with it.
const ServeName = "__serve-mcptest"

// Instructions are what the example server tells clients in the handshake.
const Instructions = "The example server built into mcpwire (package mcptest).\nTry echo {message}, add {a, b} and slow {steps, delay_ms}."

// newServeCommand builds the hidden command.
func newServeCommand() *Command {
	return &Command{
		Name:    ServeName,
		Summary: "run the built-in example MCP server on stdin/stdout",
		Usage:   ServeName + " [--faults LIST] [--replay FILE]",
		Hidden:  true,
		Options: func() Options { return &serveOptions{} },
	}
}

// serveOptions are the command's flags.
type serveOptions struct {
	Faults string
	// Replay serves a wire recording (--record's file) instead.
	Replay string
}

func (o *serveOptions) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Faults, "faults", "", "misbehave on purpose: a comma-separated `LIST` of mcptest faults, e.g. crash:echo")
	fs.StringVar(&o.Replay, "replay", "", "answer as the wire recording in `FILE` (see --record) instead")
}

func (o *serveOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if err := NoArgs(p); err != nil {
		return err
	}
	if o.Replay != "" {
		if o.Faults != "" {
			return Usagef("--faults and --replay cannot be combined")
		}
		r, err := mcptest.OpenReplay(o.Replay)
		if err != nil {
			return fmt.Errorf("--replay: %w", err)
		}
		defer r.Close()
		return r.ServeStdio(ctx)
	}
	opts := &mcptest.Options{Instructions: Instructions}
	if o.Faults != "" {
		list, err := mcptest.ParseFaults(o.Faults)
		if err != nil {
			return Usagef("--faults: %v", err)
		}
		opts.Faults = list
	}
	return mcptest.NewDefault(opts).ServeStdio(ctx)
}
