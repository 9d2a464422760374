package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

func newToolsCommand() *Command {
	return &Command{
		Name:    "tools",
		Summary: "list the server's tools, or show one",
		Usage:   "tools [TOOL] [flags] [TARGET]",
		Description: `List the tools the server offers: name, a short signature and a one-line
description. With TOOL, show that tool in full: its description, the
signature, each parameter (type, required, default, enum, description),
its annotations and its output schema. With --json, print {"tools": [...]}
(or the one tool) with every field the server sent.

Without TARGET, list the tools of every configured server (see "mcpwire
help servers" for the config files; --config FILE picks them) under the
names a model sees, mcp__SERVER__TOOL, with the server of each. With
--json each entry is {"name", "server", "tool": {...}}. Exit status 3
means some server failed; its tools are missing or shown from the cache.
--server NAME (or "mcpwire tools NAME") lists one configured server's
tools; SERVER/TOOL shows one of them.`,
		Options: func() Options { return &toolsOptions{} },
	}
}

// toolsOptions are "mcpwire tools"'s flags.
type toolsOptions struct {
	Target TargetFlags
	Output OutputFlags
}

func (o *toolsOptions) Flags(fs *flag.FlagSet) {
	o.Target.Register(fs)
	o.Output.Register(fs, "table", "json", "jsonl")
}

func (o *toolsOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	format, err := o.Output.Resolve()
	if err != nil {
		return err
	}
	if configuredWanted(p) && o.Target.Config.Server == "" && len(p.Args) == 0 {
		return listConfiguredTools(ctx, io, &o.Target.Config, &o.Target.ServerFlags, format, o.Output.width(io))
	}
	return o.Target.Each(ctx, io, p, 0, 1, "TOOL", func(c Conn, args []string) error {
		list, err := c.Client.ListTools(ctx)
		if err != nil {
			return c.Target.Explain("listing tools", err)
		}
		if len(args) == 1 {
			tool, err := findTool(list, args[0])
			if err != nil {
				return err
			}
			if format != "table" {
				return WriteJSON(io.Out, tool)
			}
			printToolDetail(io.Out, tool)
			return nil
		}
		switch format {
		case "json":
			return WriteJSON(io.Out, struct {
				Tools []mcp.Tool `json:"tools"`
			}{NonNil(list)})
		case "jsonl":
			return writeJSONLines(io.Out, list)
		}
		printToolTable(io.Out, o.Output.width(io), list)
		return nil
	})
}

// findTool is the tool named name, or a usage error with the nearest
// names.
func findTool(list []mcp.Tool, name string) (*mcp.Tool, error) {
	names := make([]string, len(list))
	for i := range list {
		if list[i].Name == name {
			return &list[i], nil
		}
		names[i] = list[i].Name
	}
	return nil, Usagef("the server has no tool %q%s (\"mcpwire tools\" lists them)", name, didYouMean(name, names))
}

// printToolTable writes tools as a NAME/SIGNATURE/DESCRIPTION table cut to
// width (0: never cut).
func printToolTable(w io.Writer, width int, list []mcp.Tool) {
	if len(list) == 0 {
		io.WriteString(w, "(no tools)\n")
		return
	}
	rows := make([][]string, 0, len(list))
	for _, t := range list {
		rows = append(rows, []string{t.Name, shortSignature(t), toolSummary(t)})
	}
	Table(w, width, []string{"NAME", "SIGNATURE", "DESCRIPTION"}, rows)
}

// shortSignature is the parameter list of a tool's signature: "(a:
// number, b: number)". It is not cut here: the table cuts it to the
// terminal's width, and never with --wide or in a pipe.
func shortSignature(t mcp.Tool) string {
	return strings.TrimPrefix(signature(t.Name, t.InputSchema, nil), t.Name)
}

// toolSummary is a tool's one-line description: its title (when it says more
// than the name) and the first line of its description.
func toolSummary(t mcp.Tool) string {
	return Describe(t.Name, t.DisplayName(), t.Description)
}

// printToolDetail writes one tool in full. The server's one-line values
// (names, the title, a default) show a newline as ^J, and the description
// is indented under its label (see writeProse): nothing the server wrote
// starts a line that passes for one of the labels here.
func printToolDetail(w io.Writer, t *mcp.Tool) {
	fmt.Fprintln(w, sanitizeLine(signature(t.Name, t.InputSchema, t.OutputSchema)))
	if t.DisplayName() != t.Name {
		fmt.Fprintf(w, "Title: %s\n", sanitizeLine(t.DisplayName()))
	}
	if d := strings.TrimSpace(t.Description); d != "" {
		fmt.Fprintln(w)
		writeProse(w, "Description", d)
	}
	if s, ok := parseObjectSchema(t.InputSchema); ok {
		fmt.Fprintln(w, "\nParameters:")
		for _, n := range s.Names {
			prop := s.Props[n]
			facts := []string{prop.typeName()}
			if s.required(n) {
				facts = append(facts, "required")
			}
			if len(prop.Default) > 0 {
				facts = append(facts, "default "+string(prop.Default))
			}
			if len(prop.Enum) > 0 {
				vals := make([]string, len(prop.Enum))
				for i, e := range prop.Enum {
					vals[i] = string(e)
				}
				facts = append(facts, "one of "+strings.Join(vals, ", "))
			}
			line := fmt.Sprintf("  %s (%s)", n, strings.Join(facts, ", "))
			if prop.Description != "" {
				line += ": " + strings.Join(strings.Fields(prop.Description), " ")
			}
			fmt.Fprintln(w, sanitizeLine(line))
		}
	} else {
		fmt.Fprintln(w, "\nParameters: (none)")
	}
	if a := t.Annotations; a != nil {
		var hints []string
		for _, h := range []struct {
			name string
			v    *bool
		}{{"readOnly", a.ReadOnlyHint}, {"destructive", a.DestructiveHint}, {"idempotent", a.IdempotentHint}, {"openWorld", a.OpenWorldHint}} {
			if h.v != nil {
				hints = append(hints, fmt.Sprintf("%s=%v", h.name, *h.v))
			}
		}
		if len(hints) > 0 {
			fmt.Fprintf(w, "\nAnnotations: %s\n", strings.Join(hints, ", "))
		}
	}
	if len(t.OutputSchema) > 0 {
		fmt.Fprintf(w, "\nOutput schema:\n%s\n", Sanitize(PrettyJSON(t.OutputSchema)))
	}
}
