package cli

import (
	"context"
	"flag"
)

// Command is one mcpwire subcommand: its help texts and how to build its
// options.
type Command struct {
	// Name is what the user types: "tools", "call", ...
	Name string
	// Summary is the one line shown in the command list.
	Summary string
	// Usage is the synopsis after "mcpwire ", e.g. "tools [flags] TARGET".
	Usage string
	// Description is the help text's body, plain paragraphs.
	Description string
	// Hidden commands work but are not listed by "mcpwire help".
	Hidden bool
	// Options returns fresh options for one run, defaults set.
	Options func() Options
}

// Options is one command's command line: each command's options struct
// holds its flags as fields. Flags registers them; Run does the work with
// the positional arguments. Parsing fills the struct and runs nothing, so
// a test checks what a command line means without starting a server
// (parseOptions in the tests).
type Options interface {
	Flags(fs *flag.FlagSet)
	// Run returns its error; ExitCode maps it to the exit status and
	// Report prints it.
	Run(ctx context.Context, io *IOStreams, p Parsed) error
}

// Parse fills fresh options from args without running anything. "-h"
// returns flag.ErrHelp.
func (c *Command) Parse(args []string) (Options, *flag.FlagSet, Parsed, error) {
	o := c.Options()
	all := NewFlagSet(c.Name)
	o.Flags(all)
	fs := acceptedFlags(c.Name, all)
	p, err := Parse(fs, args)
	return o, fs, p, err
}

// Execute parses args and runs the command. "-h" prints the command's
// help to io.Out and returns nil.
func (c *Command) Execute(ctx context.Context, io *IOStreams, args []string) error {
	o, fs, p, err := c.Parse(args)
	if err == flag.ErrHelp {
		c.PrintHelp(io.Out, fs)
		return nil
	}
	if err != nil {
		return err
	}
	return o.Run(ctx, io, p)
}

// FlagSet returns a flag set with the flags the command accepts.
func (c *Command) FlagSet() *flag.FlagSet {
	_, fs, _, _ := c.Parse(nil)
	return fs
}
