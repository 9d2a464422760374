// Package ping is "mcpwire ping": is the server alive and answering?
package ping

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/internal/cli/cliutil"
	"github.com/mcpwire/mcpwire/mcp"
)

// New builds the command.
func New() *cliutil.Command {
	var opts cliutil.ServerOptions
	return &cliutil.Command{
		Name:    "ping",
		Summary: "check that the server answers",
		Usage:   "ping [flags] TARGET",
		Description: `Connect (the MCP handshake), send one ping and report how long the
answer took. Exit status 0 means the server is up and answering.
With --json, print {"ok": true, "server": {...}, "pingMs": N}.`,
		Flags: opts.Register,
		Run: func(ctx context.Context, io *cliutil.IOStreams, p cliutil.Parsed) error {
			return opts.WithServer(ctx, io, p, 0, "", func(c *mcp.Client, t *cliutil.Target, _ []string) error {
				start := time.Now()
				if err := c.Ping(ctx); err != nil {
					return t.Explain("ping", err)
				}
				took := time.Since(start)
				si := c.ServerInfo()
				if opts.JSON {
					return cliutil.WriteJSON(io.Out, struct {
						OK     bool    `json:"ok"`
						Server any     `json:"server"`
						PingMs float64 `json:"pingMs"`
					}{true, si, float64(took.Microseconds()) / 1000})
				}
				fmt.Fprintf(io.Out, "ok: %s %s answered ping in %s\n",
					cliutil.Sanitize(si.Name), cliutil.Sanitize(si.Version), took.Round(10*time.Microsecond))
				return nil
			})
		},
	}
}
