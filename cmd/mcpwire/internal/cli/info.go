// Package info is "mcpwire info": what the server said about itself in the
// handshake.
package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

// newInfoCommand builds the command.
func newInfoCommand() *Command {
	var opts ServerOptions
	return &Command{
		Name:    "info",
		Summary: "show the server's name, version, protocol, capabilities and instructions",
		Usage:   "info [flags] TARGET",
		Description: `Connect, and show what the server said about itself in the handshake:
name and version, the negotiated protocol version, its capabilities and
its instructions. With --json, print the initialize result as received:
{"protocolVersion", "capabilities", "serverInfo", "instructions"}.`,
		Flags: opts.Register,
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			return opts.WithServer(ctx, io, p, 0, "", func(c *mcp.Client, t *Target, _ []string) error {
				if opts.JSON {
					return WriteJSON(io.Out, c.InitializeResult())
				}
				printInfo(io.Out, c)
				return nil
			})
		},
	}
}

// printInfo writes the server's self-description for people.
func printInfo(w io.Writer, c *mcp.Client) {
	si := c.ServerInfo()
	name := si.Name
	if si.Title != "" && si.Title != si.Name {
		name += " (" + si.Title + ")"
	}
	fmt.Fprintf(w, "Server:        %s %s\n", Sanitize(name), Sanitize(si.Version))
	fmt.Fprintf(w, "Protocol:      %s\n", Sanitize(c.ProtocolVersion()))
	fmt.Fprintf(w, "Capabilities:  %s\n", capabilities(c.ServerCapabilities()))
	if ins := strings.TrimSpace(c.Instructions()); ins != "" {
		fmt.Fprintln(w, "Instructions:")
		for _, line := range strings.Split(Sanitize(ins), "\n") {
			fmt.Fprintf(w, "  %s\n", strings.TrimRight(line, " \t"))
		}
	}
}

// capabilities lists the declared capabilities in one line, sub-flags in
// parentheses: "tools (listChanged), resources (subscribe), logging".
func capabilities(caps mcp.ServerCapabilities) string {
	var parts []string
	add := func(name string, present bool, flags ...string) {
		if !present {
			return
		}
		var on []string
		for i := 0; i+1 < len(flags); i += 2 {
			if flags[i+1] == "y" {
				on = append(on, flags[i])
			}
		}
		if len(on) > 0 {
			name += " (" + strings.Join(on, ", ") + ")"
		}
		parts = append(parts, name)
	}
	if p := caps.Tools; p != nil {
		add("tools", true, "listChanged", yes(p.ListChanged))
	}
	if p := caps.Resources; p != nil {
		add("resources", true, "subscribe", yes(p.Subscribe), "listChanged", yes(p.ListChanged))
	}
	if p := caps.Prompts; p != nil {
		add("prompts", true, "listChanged", yes(p.ListChanged))
	}
	add("logging", caps.Logging != nil)
	add("completions", caps.Completions != nil)
	add("tasks", caps.Tasks != nil)
	for name := range caps.Experimental {
		parts = append(parts, "experimental:"+Sanitize(name))
	}
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, ", ")
}

func yes(b bool) string {
	if b {
		return "y"
	}
	return "n"
}
