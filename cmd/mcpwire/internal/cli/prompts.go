// Package prompts is "mcpwire prompts": list a server's prompts.
package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

// newPromptsCommand builds the command.
func newPromptsCommand() *Command {
	var opts ServerOptions
	return &Command{
		Name:    "prompts",
		Summary: "list the server's prompts",
		Usage:   "prompts [flags] TARGET",
		Description: `List the prompts the server offers: name, promptArguments (required ones
marked with *) and a one-line description. Fetch one with
"mcpwire prompt NAME --arg K=V TARGET". With --json, print {"prompts": [...]}.`,
		Flags: opts.Register,
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			return opts.WithServer(ctx, io, p, 0, "", func(c *mcp.Client, t *Target, _ []string) error {
				var (
					list []mcp.Prompt
					err  error
				)
				if c.ServerCapabilities().Prompts != nil {
					if list, err = c.ListPrompts(ctx); err != nil {
						return t.Explain("listing prompts", err)
					}
				}
				if opts.JSON {
					return WriteJSON(io.Out, struct {
						Prompts []mcp.Prompt `json:"prompts"`
					}{NonNil(list)})
				}
				printPromptTable(io.Out, io.TableWidth(), list)
				return nil
			})
		},
	}
}

func printPromptTable(w io.Writer, width int, list []mcp.Prompt) {
	if len(list) == 0 {
		fmt.Fprintln(w, "(no prompts)")
		return
	}
	rows := make([][]string, 0, len(list))
	for _, p := range list {
		rows = append(rows, []string{p.Name, promptArguments(p.Arguments), Describe(p.Name, p.Title, p.Description)})
	}
	Table(w, width, []string{"NAME", "ARGUMENTS", "DESCRIPTION"}, rows)
}

// promptArguments lists argument names, required ones with a trailing "*".
func promptArguments(args []mcp.PromptArgument) string {
	if len(args) == 0 {
		return "-"
	}
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a.Name
		if a.Required {
			names[i] += "*"
		}
	}
	return strings.Join(names, ",")
}
