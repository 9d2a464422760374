// Package version is "mcpwire version".
package version

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"github.com/mcpwire/mcpwire/internal/cli/cliutil"
	"github.com/mcpwire/mcpwire/mcp"
)

// New builds the command.
func New() *cliutil.Command {
	var asJSON bool
	return &cliutil.Command{
		Name:    "version",
		Summary: "print mcpwire's version and the MCP versions it speaks",
		Usage:   "version [--json]",
		Flags: func(fs *flag.FlagSet) {
			cliutil.JSONFlag(fs, &asJSON)
		},
		Run: func(ctx context.Context, io *cliutil.IOStreams, p cliutil.Parsed) error {
			if err := cliutil.NoArgs(p); err != nil {
				return err
			}
			v := struct {
				Version          string   `json:"version"`
				ProtocolVersions []string `json:"protocolVersions"`
				Go               string   `json:"go"`
			}{cliutil.Version(), mcp.SupportedProtocolVersions, runtime.Version()}
			if asJSON {
				return cliutil.WriteJSON(io.Out, v)
			}
			fmt.Fprintf(io.Out, "mcpwire %s (%s)\nMCP protocol versions: %v\n", v.Version, v.Go, v.ProtocolVersions)
			return nil
		},
	}
}
