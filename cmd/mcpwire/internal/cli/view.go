package cli

import (
	"bytes"
	"context"
	"flag"
)

// viewOptions are the options of a command that asks servers something
// and prints the answer (info, ping, resources, prompts, read, prompt):
// which servers, and the output form. The command supplies show and how
// many arguments it takes; Run does the rest for each server.
type viewOptions struct {
	Target TargetFlags
	Output OutputFlags

	formats          []string
	minArgs, maxArgs int
	what             string
	show             func(ctx context.Context, io *IOStreams, v view) error
	// many says how the --json documents of several configured servers
	// merge into one (jsonDocs's lists and whole); nil for a command
	// about one server.
	many *jsonDocs
}

// view is what show gets for one server.
type view struct {
	Conn
	Args   []string
	Format string // one of the command's formats
	Width  int    // table width; 0: never cut
}

func (o *viewOptions) Flags(fs *flag.FlagSet) {
	o.Target.Register(fs)
	o.Output.Register(fs, o.formats...)
}

func (o *viewOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	format, err := o.Output.Resolve()
	if err != nil {
		return err
	}
	var docs *jsonDocs
	if format == "json" {
		docs = o.many
	}
	return o.Target.each(ctx, io, p, o.minArgs, o.maxArgs, o.what, docs, func(c Conn, args []string) error {
		v := view{Conn: c, Args: args, Format: format, Width: o.Output.width(io)}
		if !c.Many {
			return o.show(ctx, io, v)
		}
		var doc bytes.Buffer
		one := *io
		one.Out = &doc
		if err := o.show(ctx, &one, v); err != nil {
			return err
		}
		docs.add(c.Name, doc.Bytes())
		return nil
	})
}
