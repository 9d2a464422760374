package cli

import (
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/mcpwire/mcpwire/mcp"
)

func newCallCommand() *Command {
	return &Command{
		Name:    "call",
		Summary: "call a tool and print its result",
		Usage:   "call TOOL [--arg K=V ...] [--args-json '{...}'] [flags] [TARGET]",
		Description: `Call the tool TOOL and print what it returned: text as it is, images
and audio as a one-line summary, resource links and embedded resources
with their URI. Structured content is printed only when no text block
carries the result (or always with --structured). --output FILE writes the result's
one content block, or its one image, audio or resource among text, to
FILE as raw bytes (the rest is printed). With --json the whole result is printed as JSON.

The tool list is read first: an unknown TOOL is a usage error (exit 2)
with the nearest names, and --arg values are converted by the tool's
inputSchema: a string parameter takes V as it is; number, integer,
boolean, array and object parameters parse V (--arg n=3, --arg on=true,
--arg 'tags=["a","b"]'); an enum is checked. A value that does not fit is
a usage error naming the argument and the type, before any call. Without
a schema for the argument, V is used as JSON when it is valid JSON, else
as a string. --arg K=@FILE reads V from FILE, --arg K=@- from stdin
(@@ starts a value with "@"). --args-json takes a whole JSON object ("-"
reads it from stdin); --arg pairs override its keys.

Progress notifications from the server are shown on stderr: a live line
on a terminal, one line per update otherwise. On a terminal, a call still
running after 2s with no progress yet shows how long it has run ("still
running, 45s"), until its result or its first progress comes.

Deadlines: the call may go --tool-timeout (default 10m) without a
progress notification, and each one starts that again, up to 2h in all;
--tool-timeout 0 waits forever. Tools build, test or wait on a person for
minutes, so they are judged by signs of life, not a fixed cap. --timeout
(default 30s) bounds the protocol requests (the handshake, the tool
list), which a working server answers at once; given explicitly on call,
it also caps the whole call, progress or not. A configured server's
"timeout" bounds its tool calls too, unless --tool-timeout is given. A
call that runs out exits 6, Ctrl-C exits 130; both cancel the call on the
server.

Exit status 4 means the tool reported an error (isError); its content is
still printed. Exit status 5 means the server refused the call (a
JSON-RPC error such as -32602, invalid params).

Without TARGET, TOOL names a tool of a configured server (see "mcpwire
help servers"; --config FILE picks the files): SERVER/TOOL (or --server
SERVER TOOL) starts only that server, and a model-facing name
(mcp__SERVER__TOOL, as "mcpwire tools" lists them) or the server's own
tool name (when one server offers it) starts them all to find it.`,
		Options: func() Options { return &callOptions{} },
	}
}

// callOptions are "mcpwire call"'s flags.
type callOptions struct {
	Target     TargetFlags
	Output     OutputFlags
	Args       StringList
	ArgsJSON   string
	Structured bool
	OutputFile string
}

func (o *callOptions) Flags(fs *flag.FlagSet) {
	fs.Var(&o.Args, "arg", "tool argument `K=V`, converted by the tool's schema; V may be @FILE or @- (repeatable)")
	fs.StringVar(&o.ArgsJSON, "args-json", "", "all tool arguments as one `JSON` object; - reads it from stdin")
	fs.BoolVar(&o.Structured, "structured", false, "always print the structured content, even when the text says the same")
	fs.StringVar(&o.OutputFile, "output", "", "write a result of one text or binary content to `FILE` as raw bytes")
	o.Target.Register(fs)
	o.Output.Register(fs, "text", "json")
}

func (o *callOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	format, err := o.Output.Resolve()
	if err != nil {
		return err
	}
	// Bad arguments are reported before the server starts.
	args, err := readToolArgs(io.In, o.ArgsJSON, o.Args)
	if err != nil {
		return err
	}
	if err := checkOutputFile(o.OutputFile); err != nil {
		return err
	}
	call := func(c Conn, name string) error {
		// Listing first finds the tool's schema (and lets the client check
		// the result against its outputSchema).
		list, err := c.Client.ListTools(ctx)
		if err != nil {
			return c.Target.Explain("listing tools", err)
		}
		tool, err := findTool(list, name)
		if err != nil {
			return err
		}
		v, err := args.build(tool.InputSchema)
		if err != nil {
			return err
		}
		if o.Target.timeoutSet {
			// Who writes --timeout on call means the call.
			c.Target.CallCap = o.Target.Timeout
		}
		return callTool(ctx, io, c.Target, c.Client, name, v, o.result(format))
	}
	if configuredWanted(p) && o.Target.Config.Server == "" {
		if err := argCount(p.Args, 1, 1, "TOOL"); err != nil {
			return err
		}
		return withConfiguredTool(ctx, io, &o.Target.Config, &o.Target.ServerFlags, p.Args[0], func(t *Target, c *mcp.Client, tool string) error {
			return call(Conn{Client: c, Target: t}, tool)
		})
	}
	return o.Target.Each(ctx, io, p, 1, 1, "TOOL", func(c Conn, a []string) error {
		return call(c, a[0])
	})
}

// resultOptions say how callTool prints a result.
type resultOptions struct {
	JSON       bool
	Structured bool
	File       string
}

func (o *callOptions) result(format string) resultOptions {
	return resultOptions{JSON: format == "json", Structured: o.Structured, File: o.OutputFile}
}

// callTool calls the tool, showing progress on io.ErrOut, and prints the
// result to io.Out (or ro.File). It returns a *ToolError when the result
// has isError, and the client's error otherwise (an
// *mcp.OutputSchemaError comes after the result was printed).
func callTool(ctx context.Context, io *IOStreams, t *Target, c *mcp.Client, name string, args any, ro resultOptions) error {
	progress := NewProgress(io, name)
	callCtx, cancel := t.capCall(ctx)
	res, err := c.CallTool(callCtx, name, args, t.callOptions(progress.Update))
	cancel()
	progress.Done()
	err = t.explainCap(callCtx, err)
	if res == nil {
		if err == nil {
			err = errors.New("no result")
		}
		return t.ExplainTool(fmt.Sprintf("calling tool %q", name), err)
	}
	switch {
	case ro.File != "":
		rest, werr := writeRaw(ro.File, res)
		if werr != nil {
			return werr
		}
		WriteContent(io.Out, rest)
	case ro.JSON:
		if werr := WriteJSON(io.Out, res); werr != nil {
			return werr
		}
	default:
		printCallResult(io.Out, res, ro.Structured)
	}
	if err != nil {
		return t.ExplainTool(fmt.Sprintf("tool %q", name), err)
	}
	if res.IsError {
		return &ToolError{Tool: name}
	}
	return nil
}

// printCallResult writes a tool result for people: the content blocks,
// then the structured content as indented JSON only when no text block
// carries the result (or always is set). A text result is then its text
// alone, so "mcpwire call read_file ... > copy" copies the file; the
// structured content stays one flag (or --json) away.
func printCallResult(w io.Writer, res *mcp.CallToolResult, always bool) {
	WriteContent(w, res.Content)
	structured := len(res.StructuredContent) > 0 && (always || !hasText(res))
	if structured {
		if len(res.Content) > 0 {
			fmt.Fprintln(w, "structured content:")
		}
		fmt.Fprintln(w, Sanitize(PrettyJSON(res.StructuredContent)))
	}
	if len(res.Content) == 0 && len(res.StructuredContent) == 0 {
		fmt.Fprintln(w, "(no content)")
	}
}

// hasText reports whether res has a text block.
func hasText(res *mcp.CallToolResult) bool {
	return slices.ContainsFunc(res.Content, func(c mcp.Content) bool { return c.Type == mcp.ContentText })
}

// writeRaw writes one content block of res to file as raw bytes: the
// only block, or the only binary one (image, audio, resource) among text
// blocks. Text is written as it is; image and audio data and resource
// blobs are decoded. It returns the blocks it did not write.
func writeRaw(file string, res *mcp.CallToolResult) ([]mcp.Content, error) {
	pick := -1
	if len(res.Content) == 1 {
		pick = 0
	} else {
		for i, c := range res.Content {
			if c.Type != "text" {
				if pick >= 0 {
					pick = -2
					break
				}
				pick = i
			}
		}
	}
	if pick < 0 {
		return nil, fmt.Errorf("--output: the result has %d content blocks; it takes one, or one image, audio or resource among text (use --json for the whole result)", len(res.Content))
	}
	c := res.Content[pick]
	var data []byte
	var err error
	switch {
	case c.Type == "text":
		data = []byte(c.Text)
	case c.Data != "":
		if data, err = base64.StdEncoding.DecodeString(c.Data); err != nil {
			err = fmt.Errorf("the server's base64 data does not decode: %w", err)
		}
	case c.Resource != nil:
		data, err = resourceBytes(*c.Resource)
	default:
		return nil, fmt.Errorf("--output: a %s content block has no bytes to write", c.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("--output: %w", err)
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		return nil, fmt.Errorf("--output: %w", err)
	}
	return append(slices.Clone(res.Content[:pick]), res.Content[pick+1:]...), nil
}
