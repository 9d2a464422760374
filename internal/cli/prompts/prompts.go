// Package prompts is "mcpwire prompts": list a server's prompts.
package prompts

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/internal/cli/cliutil"
	"github.com/mcpwire/mcpwire/mcp"
)

// New builds the command.
func New() *cliutil.Command {
	var (
		server cliutil.ServerFlags
		asJSON bool
	)
	return &cliutil.Command{
		Name:    "prompts",
		Summary: "list the server's prompts",
		Usage:   "prompts [flags] TARGET",
		Description: `List the prompts the server offers: name, arguments (required ones
marked with *) and a one-line description. Fetch one with
"mcpwire prompt NAME --arg K=V TARGET". With --json, print {"prompts": [...]}.`,
		Flags: func(fs *flag.FlagSet) {
			server.Register(fs)
			cliutil.JSONFlag(fs, &asJSON)
		},
		Run: func(ctx context.Context, io *cliutil.IOStreams, p cliutil.Parsed) error {
			t, args, err := server.Resolve(io, p)
			if err != nil {
				return err
			}
			if err := cliutil.ExactArgs(args, 0, ""); err != nil {
				return err
			}
			c, err := cliutil.Connect(ctx, io, t)
			if err != nil {
				return err
			}
			defer c.Close()
			var list []mcp.Prompt
			if c.ServerCapabilities().Prompts != nil {
				if list, err = c.ListPrompts(ctx); err != nil {
					return t.Explain("listing prompts", err)
				}
			}
			if asJSON {
				return cliutil.WriteJSON(io.Out, struct {
					Prompts []mcp.Prompt `json:"prompts"`
				}{cliutil.NonNil(list)})
			}
			printTable(io.Out, io.TableWidth(), list)
			return nil
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
		desc := cliutil.FirstLine(p.Description)
		if p.Title != "" && p.Title != p.Name {
			desc = strings.TrimSuffix(p.Title+" - "+desc, " - ")
		}
		rows = append(rows, []string{p.Name, arguments(p.Arguments), desc})
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
