package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

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
--output FILE writes the one content to FILE as raw bytes instead (text
as it is, a blob decoded from base64).
With --json, print the server's {"contents": [...]} with blobs in base64.
Without TARGET, read from a configured server: --server NAME URI or
NAME/URI (the only one when just one is configured).`,
		Options: func() Options { return newReadOptions() },
	}
}

// readOptions are "mcpwire read"'s flags: a view's, and --output.
type readOptions struct {
	viewOptions
	OutputFile string
}

func newReadOptions() *readOptions {
	o := &readOptions{viewOptions: viewOptions{formats: []string{"text", "json"}, minArgs: 1, maxArgs: 1, what: "URI"}}
	o.show = o.showResource
	return o
}

func (o *readOptions) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.OutputFile, "output", "", "write the resource's one content to `FILE` as raw bytes")
	o.viewOptions.Flags(fs)
}

// Run checks --output before the server starts, then reads as a view.
func (o *readOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if err := checkOutputFile(o.OutputFile); err != nil {
		return err
	}
	return o.viewOptions.Run(ctx, io, p)
}

func (o *readOptions) showResource(ctx context.Context, io *IOStreams, v view) error {
	res, err := v.Client.ReadResource(ctx, v.Args[0])
	if err != nil {
		return v.Target.Explain(fmt.Sprintf("reading %q", v.Args[0]), fmt.Errorf("%w%s", err, nearResources(ctx, v.Client, v.Args[0], err)))
	}
	switch {
	case o.OutputFile != "":
		return writeResourceFile(o.OutputFile, res.Contents)
	case v.Format == "json":
		return WriteJSON(io.Out, struct {
			Contents []mcp.ResourceContents `json:"contents"`
		}{NonNil(res.Contents)})
	}
	printContents(io.Out, res.Contents)
	return nil
}

// writeResourceFile writes a read's one content to file as raw bytes.
func writeResourceFile(file string, contents []mcp.ResourceContents) error {
	if len(contents) != 1 {
		return fmt.Errorf("--output: the resource has %d contents; it takes one (use --json for them all)", len(contents))
	}
	data, err := resourceBytes(contents[0])
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	return nil
}

// resourceBytes is a resource's content as raw bytes: its text, or its
// blob decoded.
func resourceBytes(r mcp.ResourceContents) ([]byte, error) {
	if r.IsText() {
		return []byte(*r.Text), nil
	}
	data, err := r.DecodeBlob()
	if err != nil {
		return nil, fmt.Errorf("the server's base64 data does not decode: %w", err)
	}
	return data, nil
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
