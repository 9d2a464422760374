// Package resources is "mcpwire resources": list a server's resources and
// resource templates.
package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/mcp"
)

// newResourcesCommand builds the command.
func newResourcesCommand() *Command {
	var opts ServerOptions
	return &Command{
		Name:    "resources",
		Summary: "list the server's resources and resource templates",
		Usage:   "resources [flags] TARGET",
		Description: `List the resources the server offers (URI, name, MIME type, description),
then its resource templates. Read one with "mcpwire read URI TARGET".
With --json, print {"resources": [...], "resourceTemplates": [...]}.`,
		Flags: opts.Register,
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			return opts.WithServer(ctx, io, p, 0, "", func(c *mcp.Client, t *Target, _ []string) error {
				var (
					list      []mcp.Resource
					templates []mcp.ResourceTemplate
					err       error
				)
				// A server without the resources capability has nothing to
				// list; asking would only earn a "method not found".
				if c.ServerCapabilities().Resources != nil {
					if list, err = c.ListResources(ctx); err != nil {
						return t.Explain("listing resources", err)
					}
					if templates, err = c.ListResourceTemplates(ctx); err != nil {
						return t.Explain("listing resource templates", err)
					}
				}
				if opts.JSON {
					return WriteJSON(io.Out, struct {
						Resources         []mcp.Resource         `json:"resources"`
						ResourceTemplates []mcp.ResourceTemplate `json:"resourceTemplates"`
					}{NonNil(list), NonNil(templates)})
				}
				printResourceTables(io.Out, io.TableWidth(), list, templates)
				return nil
			})
		},
	}
}

func printResourceTables(w io.Writer, width int, list []mcp.Resource, templates []mcp.ResourceTemplate) {
	if len(list) == 0 && len(templates) == 0 {
		fmt.Fprintln(w, "(no resources)")
		return
	}
	if len(list) > 0 {
		rows := make([][]string, 0, len(list))
		for _, r := range list {
			rows = append(rows, []string{r.URI, r.Name, r.MimeType, Describe("", r.Title, r.Description)})
		}
		Table(w, width, []string{"URI", "NAME", "MIME", "DESCRIPTION"}, rows)
	}
	if len(templates) > 0 {
		if len(list) > 0 {
			fmt.Fprintln(w)
		}
		rows := make([][]string, 0, len(templates))
		for _, r := range templates {
			rows = append(rows, []string{r.URITemplate, r.Name, r.MimeType, Describe("", r.Title, r.Description)})
		}
		Table(w, width, []string{"TEMPLATE", "NAME", "MIME", "DESCRIPTION"}, rows)
	}
}
