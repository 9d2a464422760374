// Package ping is "mcpwire ping": is the server alive and answering?
package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// newPingCommand builds the command.
func newPingCommand() *Command {
	var opts ServerOptions
	return &Command{
		Name:    "ping",
		Summary: "check that the server answers",
		Usage:   "ping [flags] TARGET",
		Description: `Connect (the MCP handshake), send one ping and report how long the
answer took. Exit status 0 means the server is up and answering.
With --json, print {"ok": true, "server": {...}, "pingMs": N}.`,
		Flags: opts.Register,
		Run: func(ctx context.Context, io *IOStreams, p Parsed) error {
			return opts.WithServer(ctx, io, p, 0, "", func(c *mcp.Client, t *Target, _ []string) error {
				start := time.Now()
				if err := c.Ping(ctx); err != nil {
					return t.Explain("ping", err)
				}
				took := time.Since(start)
				si := c.ServerInfo()
				if opts.JSON {
					return WriteJSON(io.Out, struct {
						OK     bool    `json:"ok"`
						Server any     `json:"server"`
						PingMs float64 `json:"pingMs"`
					}{true, si, float64(took.Microseconds()) / 1000})
				}
				fmt.Fprintf(io.Out, "ok: %s %s answered ping in %s\n",
					Sanitize(si.Name), Sanitize(si.Version), took.Round(10*time.Microsecond))
				return nil
			})
		},
	}
}
