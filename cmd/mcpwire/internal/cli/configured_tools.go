package cli

import (
	"context"
	"io"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// listConfiguredTools is "mcpwire tools" without a target: every tool of every
// configured server, under the names a model sees. It prints what it got
// even when some servers failed (a line for each failure), then
// returns an error for exit status 3.
func listConfiguredTools(ctx context.Context, io *IOStreams, f *ConfigFlags, sf *ServerFlags, format string, width int) error {
	return withAllConfigured(ctx, io, f, sf, false, func(s *Session, snap *manager.Snapshot) error {
		failed := failures(snap)
		s.ShowFailed(failed)
		var err error
		switch format {
		case "json":
			err = WriteJSON(io.Out, struct {
				Tools []configuredTool `json:"tools"`
			}{configuredTools(snap)})
		case "jsonl":
			err = writeJSONLines(io.Out, configuredTools(snap))
		default:
			// With every server failed there is no list to show: stdout
			// stays empty rather than claim "(no tools)".
			if len(snap.Tools) > 0 || len(failed) < len(snap.Servers) || len(snap.Servers) == 0 {
				printTools(io.Out, width, snap)
			}
		}
		if err != nil {
			return err
		}
		return failureError(failed, len(snap.Servers))
	})
}

// configuredTool is one entry of the --json listing: {"name", "server",
// "cached", "tool"}.
type configuredTool struct {
	Name   string   `json:"name"`
	Server string   `json:"server"`
	Cached bool     `json:"cached,omitempty"`
	Tool   mcp.Tool `json:"tool"`
}

func configuredTools(snap *manager.Snapshot) []configuredTool {
	out := []configuredTool{}
	for _, e := range snap.Tools {
		out = append(out, configuredTool{e.Name, e.Server, e.Cached, e.Tool})
	}
	return out
}

func printTools(w io.Writer, width int, snap *manager.Snapshot) {
	if len(snap.Tools) == 0 {
		if len(snap.Servers) == 0 {
			io.WriteString(w, "(no servers configured: see \"mcpwire help servers\" for the files mcpwire reads)\n")
		} else {
			io.WriteString(w, "(no tools)\n")
		}
		return
	}
	rows := make([][]string, 0, len(snap.Tools))
	for _, e := range snap.Tools {
		server := e.Server
		if e.Cached {
			// Listed from the cache: the server is not connected.
			server += " (cached)"
		}
		rows = append(rows, []string{e.Name, server, shortSignature(e.Tool), toolSummary(e.Tool)})
	}
	Table(w, width, []string{"NAME", "SERVER", "SIGNATURE", "DESCRIPTION"}, rows)
}
