// Package call is "mcpwire call": call one tool and print its result.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mcpwire/mcpwire/mcp"
)

// newCallCommand builds the command.
func newCallCommand() *Command {
	var (
		opts     ServerOptions
		cfg      ConfigFlags
		pairs    StringList
		argsJSON string
	)
	return &Command{
		Name:    "call",
		Summary: "call a tool and print its result",
		Usage:   "call TOOL [--arg K=V ...] [--args-json '{...}'] [flags] [TARGET]",
		Description: `Call the tool TOOL and print what it returned: text as it is, images
and audio as a one-line summary, resource links and embedded resources
with their URI, then any structured content as indented JSON.

Arguments: --arg K=V sets one argument. V is used as JSON when it is valid
JSON (--arg n=3 is the number 3, --arg on=true a boolean, --arg
'tags=["a","b"]' an array), otherwise as a string (--arg text=hello);
quote it as JSON to force a string (--arg 'id="42"'). --args-json takes a
whole JSON object ("-" reads it from stdin); --arg pairs override its keys.

Progress notifications from the server are shown on stderr: a live line
on a terminal, one line per update otherwise.

Exit status 4 means the tool reported an error (isError); its content is
still printed. With --json the whole result is printed as JSON.

Without TARGET, TOOL names a tool of a configured server (see "mcpwire
help servers"; --config FILE picks the files): SERVER/TOOL starts only
that server, and a model-facing name (mcp__SERVER__TOOL, as "mcpwire
tools" lists them) starts them all to find it.`,
		Flags: func(fs *flag.FlagSet) {
			fs.Var(&pairs, "arg", "tool argument `K=V`; V is parsed as JSON when valid, else a string (repeatable)")
			fs.StringVar(&argsJSON, "args-json", "", "all tool arguments as one `JSON` object; - reads it from stdin")
			opts.Register(fs)
			cfg.Register(fs)
		},
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			if configuredWanted(p) {
				if err := ExactArgs(p.Args, 1, "TOOL"); err != nil {
					return err
				}
				toolArgs, err := callArguments(io, argsJSON, pairs)
				if err != nil {
					return err
				}
				return withConfiguredTool(ctx, io, &cfg, &opts.ServerFlags, p.Args[0], func(t *Target, c *mcp.Client, tool string) error {
					return callTool(ctx, io, t, c, tool, toolArgs, opts.JSON)
				})
			}
			if err := cfg.CheckAdHoc(); err != nil {
				return err
			}
			t, args, err := opts.ResolveArgs(io, p, 1, "TOOL")
			if err != nil {
				return err
			}
			// Bad callArguments are reported before the server starts.
			toolArgs, err := callArguments(io, argsJSON, pairs)
			if err != nil {
				return err
			}
			return WithClient(ctx, io, t, func(c *mcp.Client) error {
				// Listing first lets the client check the result against the
				// tool's outputSchema, a bug a debugging tool should catch.
				if _, err := c.ListTools(ctx); err != nil {
					return t.Explain("listing tools", err)
				}
				return callTool(ctx, io, t, c, args[0], toolArgs, opts.JSON)
			})
		},
	}
}

// callArguments builds the call's callArguments from --args-json and --arg (see
// ToolArgs). None given is a nil interface, not a nil map, so that
// the request carries no "arguments": null.
func callArguments(io *IOStreams, argsJSON string, pairs []string) (any, error) {
	args, err := ToolArgs(io.In, argsJSON, pairs)
	if err != nil || args == nil {
		return nil, err
	}
	return args, nil
}

// callTool calls the tool, showing progress on io.ErrOut, and prints the
// result to io.Out (as JSON with asJSON). It returns a *ToolError
// when the result has isError, and the client's error otherwise (an
// *mcp.OutputSchemaError comes after the result was printed).
func callTool(ctx context.Context, io *IOStreams, t *Target, c *mcp.Client, name string, args any, asJSON bool) error {
	progress := NewProgress(io, name)
	res, err := c.CallTool(ctx, name, args, &mcp.CallOptions{OnProgress: progress.Update})
	progress.Done()
	if res == nil {
		if err == nil {
			err = errors.New("no result")
		}
		return t.Explain(fmt.Sprintf("calling tool %q", name), err)
	}
	if asJSON {
		if werr := WriteJSON(io.Out, res); werr != nil {
			return werr
		}
	} else {
		printCallResult(io.Out, res)
	}
	if err != nil {
		return t.Explain(fmt.Sprintf("tool %q", name), err)
	}
	if res.IsError {
		return &ToolError{Tool: name}
	}
	return nil
}

// printCallResult writes a tool result for people: the content blocks, then
// the structured content as indented JSON.
func printCallResult(w io.Writer, res *mcp.CallToolResult) {
	WriteContent(w, res.Content)
	if len(res.StructuredContent) > 0 {
		if len(res.Content) > 0 {
			fmt.Fprintln(w, "structured content:")
		}
		fmt.Fprintln(w, Sanitize(PrettyJSON(res.StructuredContent)))
	}
	if len(res.Content) == 0 && len(res.StructuredContent) == 0 {
		fmt.Fprintln(w, "(no content)")
	}
}
