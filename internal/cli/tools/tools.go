// Package tools is "mcpwire tools": list a server's tools.
package tools

import (
	"context"
	"flag"
	"io"

	"github.com/mcpwire/mcpwire/internal/cli/cliutil"
	"github.com/mcpwire/mcpwire/internal/cli/configured"
	"github.com/mcpwire/mcpwire/mcp"
)

// New builds the command.
func New() *cliutil.Command {
	var (
		opts cliutil.ServerOptions
		cfg  configured.Flags
	)
	return &cliutil.Command{
		Name:    "tools",
		Summary: "list the server's tools",
		Usage:   "tools [flags] [TARGET]",
		Description: `List the tools the server offers: name and a one-line description.
With --json, print {"tools": [...]} with every field the server sent,
input and output schemas included.

Without TARGET, list the tools of every configured server (see "mcpwire
help servers" for the config files; --config FILE picks them) under the
names a model sees, mcp__SERVER__TOOL, with the server of each. With
--json each entry is {"name", "server", "tool": {...}}. Exit status 3
means some server failed; its tools are missing or shown from the cache.`,
		Flags: func(fs *flag.FlagSet) {
			opts.Register(fs)
			cfg.Register(fs)
		},
		Run: func(ctx context.Context, io *cliutil.IOStreams, p cliutil.Parsed) error {
			if configured.Wanted(p) {
				if err := cliutil.ExactArgs(p.Args, 0, ""); err != nil {
					return err
				}
				return configured.ListTools(ctx, io, &cfg, &opts.ServerFlags, opts.JSON)
			}
			if err := cfg.CheckAdHoc(); err != nil {
				return err
			}
			return opts.WithServer(ctx, io, p, 0, "", func(c *mcp.Client, t *cliutil.Target, _ []string) error {
				list, err := c.ListTools(ctx)
				if err != nil {
					return t.Explain("listing tools", err)
				}
				if opts.JSON {
					return cliutil.WriteJSON(io.Out, struct {
						Tools []mcp.Tool `json:"tools"`
					}{cliutil.NonNil(list)})
				}
				PrintTable(io.Out, io.TableWidth(), list)
				return nil
			})
		},
	}
}

// PrintTable writes tools as a NAME/DESCRIPTION table cut to width.
func PrintTable(w io.Writer, width int, list []mcp.Tool) {
	if len(list) == 0 {
		io.WriteString(w, "(no tools)\n")
		return
	}
	rows := make([][]string, 0, len(list))
	for _, t := range list {
		rows = append(rows, []string{t.Name, Summary(t)})
	}
	cliutil.Table(w, width, []string{"NAME", "DESCRIPTION"}, rows)
}

// Summary is a tool's one-line description: its title (when it says more
// than the name) and the first line of its description.
func Summary(t mcp.Tool) string {
	return cliutil.Describe(t.Name, t.DisplayName(), t.Description)
}
