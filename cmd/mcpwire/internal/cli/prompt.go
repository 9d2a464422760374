package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/mcp"
)

func newPromptCommand() *Command {
	return &Command{
		Name:    "prompt",
		Summary: "get a prompt, filled in with arguments",
		Usage:   "prompt NAME [--arg K=V ...] [flags] [TARGET]",
		Description: `Get the prompt NAME with the given arguments and print its messages,
each under a "role:" line. Prompt arguments are always strings, so
--arg K=V passes V as it is. With --json, print the server's
{"description": ..., "messages": [...]}. Without TARGET, NAME is
SERVER/NAME or --server SERVER names the configured server.`,
		Options: func() Options { return newPromptOptions() },
	}
}

// promptOptions are "mcpwire prompt"'s flags: a view's, and --arg.
type promptOptions struct {
	viewOptions
	Args StringList
}

func newPromptOptions() *promptOptions {
	return &promptOptions{viewOptions: viewOptions{formats: []string{"text", "json"}, minArgs: 1, maxArgs: 1, what: "NAME"}}
}

func (o *promptOptions) Flags(fs *flag.FlagSet) {
	fs.Var(&o.Args, "arg", "prompt argument `K=V` (a string; repeatable)")
	o.viewOptions.Flags(fs)
}

func (o *promptOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	promptArgs, err := StringArgs("--arg", o.Args)
	if err != nil {
		return err
	}
	o.show = func(ctx context.Context, io *IOStreams, v view) error {
		res, err := v.Client.GetPrompt(ctx, v.Args[0], promptArgs)
		if err != nil {
			if unknown := unknownPrompt(ctx, v.Client, v.Args[0], err); unknown != nil {
				return unknown
			}
			return v.Target.Explain(fmt.Sprintf("getting prompt %q", v.Args[0]), err)
		}
		if v.Format == "json" {
			out := *res
			out.Messages = NonNil(out.Messages)
			return WriteJSON(io.Out, out)
		}
		printPrompt(io.Out, res)
		return nil
	}
	return o.viewOptions.Run(ctx, io, p)
}

func printPrompt(w io.Writer, res *mcp.GetPromptResult) {
	if res.Description != "" {
		fmt.Fprintf(w, "# %s\n\n", Sanitize(FirstLine(res.Description)))
	}
	for i, m := range res.Messages {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s:\n", sanitizeLine(string(m.Role)))
		WriteContent(w, []mcp.Content{m.Content})
	}
	if len(res.Messages) == 0 {
		fmt.Fprintln(w, "(no messages)")
	}
}
