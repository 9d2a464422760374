package cli

import (
	"context"
	"flag"

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
		Usage:   ServeName + " [--faults LIST]",
		Hidden:  true,
		Options: func() Options { return &serveOptions{} },
	}
}

// serveOptions are the command's flags.
type serveOptions struct {
	Faults string
}

func (o *serveOptions) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Faults, "faults", "", "misbehave on purpose: a comma-separated `LIST` of mcptest faults, e.g. crash:echo")
}

func (o *serveOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if err := NoArgs(p); err != nil {
		return err
	}
	opts := &mcptest.Options{Instructions: Instructions}
	if o.Faults != "" {
		list, err := mcptest.ParseFaults(o.Faults)
		if err != nil {
			return Usagef("--o.Faults: %v", err)
		}
		opts.Faults = list
	}
	return mcptest.NewDefault(opts).ServeStdio(ctx)
}
