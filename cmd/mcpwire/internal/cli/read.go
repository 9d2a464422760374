// Package read is "mcpwire read": read one resource.
package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/mcp"
)

// newReadCommand builds the command.
func newReadCommand() *Command {
	var opts ServerOptions
	return &Command{
		Name:    "read",
		Summary: "read a resource by URI",
		Usage:   "read URI [flags] TARGET",
		Description: `Read the resource URI and print its contents. Text is printed as it is,
under a line naming the URI and MIME type; binary contents (blobs) are
summarised by size. A read may return several contents; all are printed.
With --json, print the server's {"contents": [...]} with blobs in base64.`,
		Flags: opts.Register,
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			return opts.WithServer(ctx, io, p, 1, "URI", func(c *mcp.Client, t *Target, args []string) error {
				res, err := c.ReadResource(ctx, args[0])
				if err != nil {
					return t.Explain(fmt.Sprintf("reading %q", args[0]), err)
				}
				if opts.JSON {
					return WriteJSON(io.Out, struct {
						Contents []mcp.ResourceContents `json:"contents"`
					}{NonNil(res.Contents)})
				}
				printContents(io.Out, res.Contents)
				return nil
			})
		},
	}
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
