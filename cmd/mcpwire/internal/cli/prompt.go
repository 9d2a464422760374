// Package prompt is "mcpwire prompt": fetch one prompt with arguments.
package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/mcp"
)

// newPromptCommand builds the command.
func newPromptCommand() *Command {
	var (
		opts  ServerOptions
		pairs StringList
	)
	return &Command{
		Name:    "prompt",
		Summary: "get a prompt, filled in with arguments",
		Usage:   "prompt NAME [--arg K=V ...] [flags] TARGET",
		Description: `Get the prompt NAME with the given arguments and print its messages,
each under a "role:" line. Prompt arguments are always strings, so
--arg K=V passes V as it is. With --json, print the server's
{"description": ..., "messages": [...]}.`,
		Flags: func(fs *flag.FlagSet) {
			fs.Var(&pairs, "arg", "prompt argument `K=V` (a string; repeatable)")
			opts.Register(fs)
		},
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			t, args, err := opts.ResolveArgs(io, p, 1, "NAME")
			if err != nil {
				return err
			}
			// A bad --arg is reported before the server starts.
			promptArgs, err := StringArgs(pairs)
			if err != nil {
				return err
			}
			return WithClient(ctx, io, t, func(c *mcp.Client) error {
				res, err := c.GetPrompt(ctx, args[0], promptArgs)
				if err != nil {
					return t.Explain(fmt.Sprintf("getting prompt %q", args[0]), err)
				}
				if opts.JSON {
					out := *res
					out.Messages = NonNil(out.Messages)
					return WriteJSON(io.Out, out)
				}
				printPrompt(io.Out, res)
				return nil
			})
		},
	}
}

func printPrompt(w io.Writer, res *mcp.GetPromptResult) {
	if res.Description != "" {
		fmt.Fprintf(w, "# %s\n\n", Sanitize(FirstLine(res.Description)))
	}
	for i, m := range res.Messages {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s:\n", Sanitize(string(m.Role)))
		WriteContent(w, []mcp.Content{m.Content})
	}
	if len(res.Messages) == 0 {
		fmt.Fprintln(w, "(no messages)")
	}
}
