package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

func newResourcesCommand() *Command {
	return &Command{
		Name:    "resources",
		Summary: "list the server's resources and resource templates",
		Usage:   "resources [flags] [TARGET]",
		Description: `List the resources the server offers (URI, name, MIME type, description),
then its resource templates. Read one with "mcpwire read URI TARGET".
With --json, print {"resources": [...], "resourceTemplates": [...]}.
Without TARGET, list those of every configured server, or of one with
--server NAME (or "mcpwire resources NAME").`,
		Options: func() Options {
			return &viewOptions{formats: []string{"table", "json"}, show: showResources, many: &jsonDocs{lists: [][2]string{{"resources", "resource"}, {"resourceTemplates", "resourceTemplate"}}}}
		},
	}
}

func showResources(ctx context.Context, io *IOStreams, v view) error {
	var (
		list      []mcp.Resource
		templates []mcp.ResourceTemplate
		err       error
	)
	if v.Client.ServerCapabilities().Resources != nil {
		if list, err = v.Client.ListResources(ctx); err != nil {
			return v.Target.Explain("listing resources", err)
		}
		// Templates are optional: a server without the method
		// (-32601) still has its resources listed, with a warning.
		switch templates, err = v.Client.ListResourceTemplates(ctx); {
		case errors.Is(err, jsonrpc.ErrMethodNotFound):
			fmt.Fprintln(io.ErrOut, "mcpwire: warning: the server does not list resource templates (resources/templates/list: method not found)")
		case err != nil:
			return v.Target.Explain("listing resource templates", err)
		}
	}
	if v.Format == "json" {
		return WriteJSON(io.Out, struct {
			Resources         []mcp.Resource         `json:"resources"`
			ResourceTemplates []mcp.ResourceTemplate `json:"resourceTemplates"`
		}{NonNil(list), NonNil(templates)})
	}
	printResourceTables(io.Out, v.Width, list, templates)
	return nil
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
