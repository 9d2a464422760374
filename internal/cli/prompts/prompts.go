// Package prompts is "mcpwire prompts": list a server's prompts.
package prompts

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/internal/cli/cliutil"
	"github.com/mcpwire/mcpwire/mcp"
)

// New builds the command.
func New() *cliutil.Command {
	var opts cliutil.ServerOptions
	return &cliutil.Command{
		Name:    "prompts",
		Summary: "list the server's prompts",
		Usage:   "prompts [flags] TARGET",
		Description: `List the prompts the server offers: name, arguments (required ones
marked with *) and a one-line description. Fetch one with
"mcpwire prompt NAME --arg K=V TARGET". With --json, print {"prompts": [...]}.`,
		Flags: opts.Register,
		Run: func(ctx context.Context, io *cliutil.IOStreams, p cliutil.Parsed) error {
			return opts.WithServer(ctx, io, p, 0, "", func(c *mcp.Client, t *cliutil.Target, _ []string) error {
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
					return cliutil.WriteJSON(io.Out, struct {
						Prompts []mcp.Prompt `json:"prompts"`
					}{cliutil.NonNil(list)})
				}
				printTable(io.Out, io.TableWidth(), list)
				return nil
			})
		},
	}
}

func printTable(w io.Writer, width int, list []mcp.Prompt) {
	if len(list) == 0 {
		fmt.Fprintln(w, "(no prompts)")
		return
	}
	rows := make([][]string, 0, len(list))
	for _, p := range list {
		rows = append(rows, []string{p.Name, arguments(p.Arguments), cliutil.Describe(p.Name, p.Title, p.Description)})
	}
	cliutil.Table(w, width, []string{"NAME", "ARGUMENTS", "DESCRIPTION"}, rows)
}

// arguments lists argument names, required ones with a trailing "*".
func arguments(args []mcp.PromptArgument) string {
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
