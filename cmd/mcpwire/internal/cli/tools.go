// Package tools is "mcpwire tools": list a server's tools.
package cli

import (
	"context"
	"flag"
	"io"

	"github.com/mcpwire/mcpwire/mcp"
)

// newToolsCommand builds the command.
func newToolsCommand() *Command {
	var (
		opts ServerOptions
		cfg  ConfigFlags
	)
	return &Command{
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
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			if configuredWanted(p) {
				if err := ExactArgs(p.Args, 0, ""); err != nil {
					return err
				}
				return listConfiguredTools(ctx, io, &cfg, &opts.ServerFlags, opts.JSON)
			}
			if err := cfg.CheckAdHoc(); err != nil {
				return err
			}
			return opts.WithServer(ctx, io, p, 0, "", func(c *mcp.Client, t *Target, _ []string) error {
				list, err := c.ListTools(ctx)
				if err != nil {
					return t.Explain("listing tools", err)
				}
				if opts.JSON {
					return WriteJSON(io.Out, struct {
						Tools []mcp.Tool `json:"tools"`
					}{NonNil(list)})
				}
				printToolTable(io.Out, io.TableWidth(), list)
				return nil
			})
		},
	}
}

// printToolTable writes tools as a NAME/DESCRIPTION table cut to width.
func printToolTable(w io.Writer, width int, list []mcp.Tool) {
	if len(list) == 0 {
		io.WriteString(w, "(no tools)\n")
		return
	}
	rows := make([][]string, 0, len(list))
	for _, t := range list {
		rows = append(rows, []string{t.Name, toolSummary(t)})
	}
	Table(w, width, []string{"NAME", "DESCRIPTION"}, rows)
}

// toolSummary is a tool's one-line description: its title (when it says more
// than the name) and the first line of its description.
func toolSummary(t mcp.Tool) string {
	return Describe(t.Name, t.DisplayName(), t.Description)
}
