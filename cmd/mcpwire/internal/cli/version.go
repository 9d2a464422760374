// Package version is "mcpwire version".
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
	var asJSON bool
	return &Command{
		Name:    "version",
		Summary: "print mcpwire's version and the MCP versions it speaks",
		Usage:   "version [--json]",
		Flags: func(fs *flag.FlagSet) {
			JSONFlag(fs, &asJSON)
		},
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			if err := NoArgs(p); err != nil {
				return err
			}
			v := struct {
				Version          string   `json:"version"`
				ProtocolVersions []string `json:"protocolVersions"`
				Go               string   `json:"go"`
			}{Version(), mcp.SupportedProtocolVersions, runtime.Version()}
			if asJSON {
				return WriteJSON(io.Out, v)
			}
			fmt.Fprintf(io.Out, "mcpwire %s (%s)\nMCP protocol versions: %v\n", v.Version, v.Go, v.ProtocolVersions)
			return nil
		},
	}
}
