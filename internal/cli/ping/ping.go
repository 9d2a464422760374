// Package ping is "mcpwire ping": is the server alive and answering?
package ping

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/internal/cli/cliutil"
)

// New builds the command.
func New() *cliutil.Command {
	var (
		server cliutil.ServerFlags
		asJSON bool
	)
	return &cliutil.Command{
		Name:    "ping",
		Summary: "check that the server answers",
		Usage:   "ping [flags] TARGET",
		Description: `Connect (the MCP handshake), send one ping and report how long the
answer took. Exit status 0 means the server is up and answering.
With --json, print {"ok": true, "server": {...}, "pingMs": N}.`,
		Flags: func(fs *flag.FlagSet) {
			server.Register(fs)
			cliutil.JSONFlag(fs, &asJSON)
		},
		Run: func(ctx context.Context, io *cliutil.IOStreams, p cliutil.Parsed) error {
			t, args, err := server.Resolve(io, p)
			if err != nil {
				return err
			}
			if err := cliutil.ExactArgs(args, 0, ""); err != nil {
				return err
			}
			c, err := cliutil.Connect(ctx, io, t)
			if err != nil {
				return err
			}
			defer c.Close()
			start := time.Now()
			if err := c.Ping(ctx); err != nil {
				return t.Explain("ping", err)
			}
			took := time.Since(start)
			si := c.ServerInfo()
			if asJSON {
				return cliutil.WriteJSON(io.Out, struct {
					OK     bool    `json:"ok"`
					Server any     `json:"server"`
					PingMs float64 `json:"pingMs"`
				}{true, si, float64(took.Microseconds()) / 1000})
			}
			fmt.Fprintf(io.Out, "ok: %s %s answered ping in %s\n",
				cliutil.Sanitize(si.Name), cliutil.Sanitize(si.Version), took.Round(10*time.Microsecond))
			return nil
		},
	}
}
