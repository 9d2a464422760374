package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Command is one mcpwire subcommand. A fresh Command is built for every
// invocation, so Flags and Run may share state through closures.
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
	// Flags registers the command's flags. Nil means none.
	Flags func(fs *flag.FlagSet)
	// Run does the work. Errors are mapped to exit codes by ExitCode and
	// printed by Report, so Run just returns them.
	Run func(ctx context.Context, io *IOStreams, args Parsed) error
}

// Execute parses args with the command's flags and runs it. "-h" prints
// the command's help to io.Out and returns nil.
func (c *Command) Execute(ctx context.Context, io *IOStreams, args []string) error {
	fs := c.FlagSet()
	p, err := Parse(fs, args)
	if err == flag.ErrHelp {
		c.PrintHelp(io.Out, fs)
		return nil
	}
	if err != nil {
		return err
	}
	return c.Run(ctx, io, p)
}

// FlagSet returns a flag set with the command's flags registered.
func (c *Command) FlagSet() *flag.FlagSet {
	fs := NewFlagSet(c.Name)
	if c.Flags != nil {
		c.Flags(fs)
	}
	return fs
}

// PrintHelp writes the command's help: synopsis, description, flags.
func (c *Command) PrintHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: mcpwire %s\n\n", c.Usage)
	if d := strings.TrimSpace(c.Description); d != "" {
		fmt.Fprintf(w, "%s\n\n", d)
	} else if c.Summary != "" {
		fmt.Fprintf(w, "%s.\n\n", c.Summary)
	}
	if defs := FlagDefaults(fs); defs != "" {
		fmt.Fprintf(w, "Flags:\n%s", defs)
	}
}
