package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

func newCompleteCommand() *Command {
	return &Command{
		Name:    "complete",
		Summary: "ask the server to complete a prompt or resource-template argument",
		Usage:   "complete (--prompt NAME | --resource TEMPLATE) ARG[=PREFIX] [--context K=V ...] [flags] [TARGET]",
		Description: `Ask the server for the values an argument of a prompt (--prompt NAME)
or of a resource template (--resource URI-TEMPLATE) may take, given what
is typed so far (ARG=PREFIX; just ARG for an empty prefix), and print
them one per line. --context K=V gives the values of arguments already
chosen. With --json, print the server's {"values", "total", "hasMore"}.
Without TARGET, --server NAME (or NAME/ARG) picks a configured server.`,
		Options: func() Options { return &completeOptions{} },
	}
}

// completeOptions are "mcpwire complete"'s flags.
type completeOptions struct {
	Target   TargetFlags
	Output   OutputFlags
	Prompt   string
	Resource string
	Context  StringList
}

func (o *completeOptions) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Prompt, "prompt", "", "complete an argument of the prompt `NAME`")
	fs.StringVar(&o.Resource, "resource", "", "complete a variable of the resource `TEMPLATE`")
	fs.Var(&o.Context, "context", "an argument already chosen, `K=V` (repeatable)")
	o.Target.Register(fs)
	o.Output.Register(fs, "text", "json")
}

func (o *completeOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	format, err := o.Output.Resolve()
	if err != nil {
		return err
	}
	var ref mcp.CompletionRef
	switch {
	case (o.Prompt == "") == (o.Resource == ""):
		return Usagef("give one of --prompt NAME and --resource TEMPLATE")
	case o.Prompt != "":
		ref = mcp.PromptRef(o.Prompt)
	default:
		ref = mcp.ResourceRef(o.Resource)
	}
	known, err := StringArgs("--context", o.Context)
	if err != nil {
		return err
	}
	return o.Target.Each(ctx, io, p, 1, 1, "ARG", func(c Conn, args []string) error {
		name, prefix, _ := strings.Cut(args[0], "=")
		res, err := c.Client.Complete(ctx, ref, mcp.CompletionArgument{Name: name, Value: prefix}, known)
		if err != nil {
			return c.Target.Explain(fmt.Sprintf("completing %q", name), err)
		}
		if format == "json" {
			return WriteJSON(io.Out, res)
		}
		for _, v := range res.Values {
			fmt.Fprintln(io.Out, sanitizeLine(v)) // one value a line
		}
		return nil
	})
}
