// Package read is "mcpwire read": read one resource.
package read

import (
	"context"
	"flag"
	"fmt"
	"io"

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
		Name:    "read",
		Summary: "read a resource by URI",
		Usage:   "read URI [flags] TARGET",
		Description: `Read the resource URI and print its contents. Text is printed as it is,
under a line naming the URI and MIME type; binary contents (blobs) are
summarised by size. A read may return several contents; all are printed.
With --json, print the server's {"contents": [...]} with blobs in base64.`,
		Flags: func(fs *flag.FlagSet) {
			server.Register(fs)
			cliutil.JSONFlag(fs, &asJSON)
		},
		Run: func(ctx context.Context, io *cliutil.IOStreams, p cliutil.Parsed) error {
			t, args, err := server.Resolve(io, p)
			if err != nil {
				return err
			}
			if err := cliutil.ExactArgs(args, 1, "URI"); err != nil {
				return err
			}
			c, err := cliutil.Connect(ctx, io, t)
			if err != nil {
				return err
			}
			defer c.Close()
			res, err := c.ReadResource(ctx, args[0])
			if err != nil {
				return t.Explain(fmt.Sprintf("reading %q", args[0]), err)
			}
			if asJSON {
				return cliutil.WriteJSON(io.Out, struct {
					Contents []mcp.ResourceContents `json:"contents"`
				}{cliutil.NonNil(res.Contents)})
			}
			printContents(io.Out, res.Contents)
			return nil
		},
	}
}

func printContents(w io.Writer, contents []mcp.ResourceContents) {
	if len(contents) == 0 {
		fmt.Fprintln(w, "(no contents)")
		return
	}
	for _, r := range contents {
		s := cliutil.Sanitize(cliutil.ResourceText(r))
		if len(s) > 0 && s[len(s)-1] != '\n' {
			s += "\n"
		}
		fmt.Fprint(w, s)
	}
}
