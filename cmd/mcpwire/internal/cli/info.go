package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mcpwire/mcpwire/mcp"
)

func newInfoCommand() *Command {
	return &Command{
		Name:    "info",
		Summary: "show the server's name, version, protocol, capabilities and instructions",
		Usage:   "info [flags] [TARGET]",
		Description: `Connect, and show what the server said about itself in the handshake:
name and version, the negotiated protocol version and era (modern, opened
with server/discover, with the versions the server supports; or legacy,
opened with initialize), its capabilities and its instructions. With
--json, print the handshake's result with the era added: {"protocolVersion",
"capabilities", "serverInfo", "instructions", "era": "modern" or "legacy",
"supportedVersions" (modern era only)}.
Without TARGET, show every configured server, or one with --server NAME.`,
		Options: func() Options {
			return &viewOptions{formats: []string{"text", "json"}, show: showInfo, many: &jsonDocs{whole: "info"}}
		},
	}
}

func showInfo(ctx context.Context, io *IOStreams, v view) error {
	if v.Format == "json" {
		return WriteJSON(io.Out, infoJSON(v.Client))
	}
	printInfo(io.Out, v.Client)
	return nil
}

// infoJSON is the handshake's result (initialize's, or what
// server/discover gave in its shape) with the era, so that a script can
// tell the eras apart without parsing the text form.
func infoJSON(c *mcp.Client) any {
	out := struct {
		mcp.InitializeResult
		Era               string   `json:"era"`
		SupportedVersions []string `json:"supportedVersions,omitempty"`
	}{InitializeResult: c.InitializeResult(), Era: "legacy"}
	if c.Modern() {
		out.Era, out.SupportedVersions = "modern", c.ServerVersions()
	}
	return out
}

// printInfo writes the server's self-description for people.
func printInfo(w io.Writer, c *mcp.Client) {
	si := c.ServerInfo()
	name := si.Name
	if si.Title != "" && si.Title != si.Name {
		name += " (" + si.Title + ")"
	}
	fmt.Fprintf(w, "Server:        %s %s\n", sanitizeLine(name), sanitizeLine(si.Version))
	// The era, and in the stateless one the versions server/discover
	// listed.
	era := " (legacy era, opened with initialize)"
	if c.Modern() {
		era = " (modern era, stateless; the server supports " + sanitizeLine(strings.Join(c.ServerVersions(), ", ")) + ")"
	}
	fmt.Fprintf(w, "Protocol:      %s%s\n", sanitizeLine(c.ProtocolVersion()), era)
	fmt.Fprintf(w, "Capabilities:  %s\n", capabilities(c.ServerCapabilities()))
	if ins := strings.TrimSpace(c.Instructions()); ins != "" {
		writeProse(w, "Instructions", ins)
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
		parts = append(parts, "experimental:"+sanitizeLine(name))
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
