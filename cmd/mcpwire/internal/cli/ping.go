package cli

import (
	"context"
	"fmt"
	"time"
)

func newPingCommand() *Command {
	return &Command{
		Name:    "ping",
		Summary: "check that the server answers",
		Usage:   "ping [flags] [TARGET]",
		Description: `Connect, send one ping and report how long the answer took. A
2026-07-28 server has no ping: it is asked server/discover instead.
Exit status 0 means the server is up and answering. With --json, print
{"ok": true, "server": {...}, "pingMs": N}. Without TARGET, ping every
configured server, or one with --server NAME.`,
		Options: func() Options {
			return &viewOptions{formats: []string{"text", "json"}, show: showPing, many: &jsonDocs{whole: "ping"}}
		},
	}
}

func showPing(ctx context.Context, io *IOStreams, v view) error {
	start := time.Now()
	if err := v.Client.Ping(ctx); err != nil {
		return v.Target.Explain("ping", err)
	}
	took := time.Since(start)
	si := v.Client.ServerInfo()
	if v.Format == "json" {
		return WriteJSON(io.Out, struct {
			OK     bool    `json:"ok"`
			Server any     `json:"server"`
			PingMs float64 `json:"pingMs"`
		}{true, si, float64(took.Microseconds()) / 1000})
	}
	fmt.Fprintf(io.Out, "ok: %s %s answered ping in %s\n",
		sanitizeLine(si.Name), sanitizeLine(si.Version), took.Round(10*time.Microsecond))
	return nil
}
