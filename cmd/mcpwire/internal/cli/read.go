package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/mcp"
)

func newReadCommand() *Command {
	return &Command{
		Name:    "read",
		Summary: "read a resource by URI",
		Usage:   "read URI [flags] [TARGET]",
		Description: `Read the resource URI and print its contents. Text is printed as it is,
under a line naming the URI and MIME type; binary contents (blobs) are
summarised by size. A read may return several contents; all are printed.
With --json, print the server's {"contents": [...]} with blobs in base64.
Without TARGET, read from a configured server: --server NAME URI or
NAME/URI (the only one when just one is configured).`,
		Options: func() Options {
			return &viewOptions{formats: []string{"text", "json"}, minArgs: 1, maxArgs: 1, what: "URI", show: showResource}
		},
	}
}

func showResource(ctx context.Context, io *IOStreams, v view) error {
	res, err := v.Client.ReadResource(ctx, v.Args[0])
	if err != nil {
		return v.Target.Explain(fmt.Sprintf("reading %q", v.Args[0]), fmt.Errorf("%w%s", err, nearResources(ctx, v.Client, v.Args[0], err)))
	}
	if v.Format == "json" {
		return WriteJSON(io.Out, struct {
			Contents []mcp.ResourceContents `json:"contents"`
		}{NonNil(res.Contents)})
	}
	printContents(io.Out, res.Contents)
	return nil
}

func printContents(w io.Writer, contents []mcp.ResourceContents) {
	if len(contents) == 0 {
		fmt.Fprintln(w, "(no contents)")
		return
	}
	for _, r := range contents {
		s := Sanitize(ResourceText(r))
		if len(s) > 0 && s[len(s)-1] != '\n' {
			s += "\n"
		}
		fmt.Fprint(w, s)
	}
}
