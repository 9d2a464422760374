package cli

import (
	"context"
	"io"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// listConfiguredTools is "mcpwire tools" without a target: every tool of every
// configured server, under the names a model sees. It prints what it got
// even when some servers failed (each failure a warning line), then
// returns an error for exit status 3.
func listConfiguredTools(ctx context.Context, io *IOStreams, f *ConfigFlags, sf *ServerFlags, asJSON bool) error {
	return withAllConfigured(ctx, io, f, sf, func(s *Session, snap *manager.Snapshot) error {
		failed := failures(snap)
		s.Warn(failed)
		if asJSON {
			if err := writeTools(io.Out, snap); err != nil {
				return err
			}
		} else {
			printTools(io.Out, io.TableWidth(), snap)
		}
		return failureError(failed, len(snap.Servers))
	})
}

// writeTools is the --json listing: {"tools": [{"name", "server",
// "cached", "tool"}, ...]}.
func writeTools(w io.Writer, snap *manager.Snapshot) error {
	type entry struct {
		Name   string   `json:"name"`
		Server string   `json:"server"`
		Cached bool     `json:"cached,omitempty"`
		Tool   mcp.Tool `json:"tool"`
	}
	out := struct {
		Tools []entry `json:"tools"`
	}{Tools: []entry{}}
	for _, e := range snap.Tools {
		out.Tools = append(out.Tools, entry{e.Name, e.Server, e.Cached, e.Tool})
	}
	return WriteJSON(w, out)
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
		rows = append(rows, []string{e.Name, server, Describe(e.Tool.Name, e.Tool.DisplayName(), e.Tool.Description)})
	}
	Table(w, width, []string{"NAME", "SERVER", "DESCRIPTION"}, rows)
}
