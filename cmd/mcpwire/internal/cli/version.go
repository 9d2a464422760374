package cli

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"github.com/mcpwire/mcpwire/mcp"
)

// newVersionCommand builds the command.
func newVersionCommand() *Command {
	return &Command{
		Name:    "version",
		Summary: "print mcpwire's version and the MCP versions it speaks",
		Usage:   "version [--json]",
		Options: func() Options { return &versionOptions{} },
	}
}

// versionOptions are the command's flags.
type versionOptions struct {
	JSON bool
}

func (o *versionOptions) Flags(fs *flag.FlagSet) {
	JSONFlag(fs, &o.JSON)
}

func (o *versionOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if err := NoArgs(p); err != nil {
		return err
	}
	v := struct {
		Version          string   `json:"version"`
		ProtocolVersions []string `json:"protocolVersions"`
		Go               string   `json:"go"`
	}{Version(), spokenProtocolVersions(), runtime.Version()}
	if o.JSON {
		return WriteJSON(io.Out, v)
	}
	fmt.Fprintf(io.Out, "mcpwire %s (%s)\nMCP protocol versions: %v\n", v.Version, v.Go, v.ProtocolVersions)
	return nil
}

// spokenProtocolVersions lists every protocol revision mcpwire speaks,
// newest first: the stateless 2026-07-28 era, then those the initialize
// handshake offers.
func spokenProtocolVersions() []string {
	return append([]string{mcp.ModernProtocolVersion}, mcp.ProtocolVersions()...)
}
