package cli

// "mcpwire servers": the configured servers, whether
// they start, and where each is defined.

import (
	"context"
	"flag"
	"fmt"
	"strconv"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/manager"
)

// newServersCommand builds the command.
func newServersCommand() *Command {
	return &Command{
		Name:    "servers",
		Summary: "list the configured servers and whether they start",
		Usage:   "servers [--sources] [--config FILE]... [flags]",
		Description: `Start every server of the config files, as a coding agent would, and list
them: name, transport, status, tool count and where it is defined. Lazy
servers are started too; disabled ones are only listed. A server whose
definition has errors (an unset ${VAR}, a bad field) is listed as failed
with the problem. A server of a project config file you have not
approved is listed as untrusted, not started, with the "mcpwire trust"
command that approves the file.

The files, first definition of a name winning: in the current directory
mcpwire.json, .mcp.json, mcp.json, .vscode/mcp.json and .cursor/mcp.json;
then the user's mcpwire/mcpwire.json (in the config directory),
~/.cursor/mcp.json, ~/.codeium/windsurf/mcp_config.json and ~/.claude.json.
A user's server whose name a project server has is listed as user:NAME.
--config FILE (repeatable) reads only the files given, and trusts them.

--sources also lists the files read and the definitions that an earlier
one of the same name shadows.

Exit status 3 means at least one enabled server failed to connect.`,
		Options: func() Options { return &serversOptions{} },
	}
}

// serversOptions are the command's flags.
type serversOptions struct {
	Config  ConfigFlags
	Server  ServerFlags
	Sources bool
	Output  OutputFlags
}

func (o *serversOptions) Flags(fs *flag.FlagSet) {
	o.Config.Register(fs)
	fs.BoolVar(&o.Sources, "sources", false, "also list the config files read and the shadowed definitions")
	fs.Var(setDuration{&o.Server.Timeout, &o.Server.timeoutSet}, "timeout", "how long each server may take to connect, and per request `DURATION` (5s, 1m; 0 disables it)")
	o.Server.Timeout = jsonrpc.DefaultTimeout
	fs.BoolVar(&o.Server.Verbose, "verbose", false, "show the servers' stderr, log messages and failures live")
	o.Server.registerRecord(fs)
	registerAllowInsecureHTTP(fs, &o.Server.AllowInsecureHTTP)
	o.Output.Register(fs, "table", "json")
}

func (o *serversOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	if len(p.Args) > 0 || p.Dash {
		return Usagef("servers takes no arguments: it lists the configured servers")
	}
	o.Server.Transport = "auto"
	return withAllConfigured(ctx, io, &o.Config, &o.Server, true, func(s *Session, snap *manager.Snapshot) error {
		if o.Output.JSON {
			if err := writeServersJSON(io, s.Set, snap, o.Sources); err != nil {
				return err
			}
		} else {
			printServers(io, s.Set, snap, o.Sources)
		}
		return failureError(failures(snap), len(snap.Servers))
	})
}

func printServers(io *IOStreams, set *config.Set, snap *manager.Snapshot, sources bool) {
	w := io.Out
	if len(snap.Servers) == 0 {
		fmt.Fprintln(w, "(no servers configured)")
	} else {
		rows := make([][]string, 0, len(snap.Servers))
		for _, st := range snap.Servers {
			tools := strconv.Itoa(st.ToolCount)
			if st.ToolsCached {
				tools += " (cached)"
			}
			if st.State == manager.StateDisabled || st.State == manager.StateUntrusted {
				tools = "-"
			}
			rows = append(rows, []string{st.Name, transportName(st.Transport), string(definiteState(st)), tools, st.Source.String()})
		}
		Table(w, io.TableWidth(), []string{"NAME", "TRANSPORT", "STATUS", "TOOLS", "SOURCE"}, rows)
		if hasErrors(snap) {
			fmt.Fprintln(w)
		}
		for _, st := range snap.Servers {
			if st.Err != nil && st.State != manager.StateConnected {
				if _, invalid := invalidDefinition(st.Err); invalid || st.State == manager.StateUntrusted {
					fmt.Fprintf(w, "%s: %s\n", Sanitize(st.Name), Sanitize(fold(io.Redact(statusNote(st)))))
					continue
				}
				// The message on one line, then the server's stderr as
				// the lines it wrote.
				msg, tail := splitStderrTail(st.Err)
				fmt.Fprintf(w, "%s: %s\n", Sanitize(st.Name), Sanitize(fold(io.Redact(cliWording(msg)))))
				writeStderrTail(w, io, tail)
			}
		}
	}
	if !sources {
		return
	}
	fmt.Fprintln(w, "\nConfig files read:")
	if len(set.Files) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	for _, f := range set.Files {
		fmt.Fprintf(w, "  %s\n", f)
	}
	fmt.Fprintln(w, "\nShadowed definitions (an earlier one of the same name wins):")
	if len(set.Shadowed) == 0 {
		fmt.Fprintln(w, "  (none)")
		return
	}
	rows := make([][]string, 0, len(set.Shadowed))
	for _, d := range set.Shadowed {
		rows = append(rows, []string{d.Name, transportName(d.Type), d.Source.String()})
	}
	Table(w, io.TableWidth(), []string{"NAME", "TRANSPORT", "SOURCE"}, rows)
}

// statusNote says why a server is not connected; for an untrusted one,
// how to approve its file.
func statusNote(st manager.ServerStatus) string {
	if st.State == manager.StateUntrusted {
		return fmt.Sprintf("untrusted: %s is a project config file you have not approved; review and approve it with %q",
			st.Source.File, trustCommandFor(st.Source.File))
	}
	if text, ok := invalidDefinition(st.Err); ok {
		return "invalid definition: " + text
	}
	return cliWording(st.Err.Error())
}

// definiteState is a server's state as its last definite outcome: one
// that failed and is being tried again is "failed", not "retrying" or
// "reconnecting", so that the listing does not change with the moment
// it is taken.
func definiteState(st manager.ServerStatus) manager.State {
	switch st.State {
	case manager.StateRetrying, manager.StateReconnecting:
		if st.Err != nil {
			return manager.StateFailed
		}
	}
	return st.State
}

func hasErrors(snap *manager.Snapshot) bool {
	for _, st := range snap.Servers {
		if st.Err != nil && st.State != manager.StateConnected {
			return true
		}
	}
	return false
}

// transportName shows an undetermined transport as "-".
func transportName(t string) string {
	if t == "" {
		return "-"
	}
	return t
}

type jsonSource struct {
	File      string `json:"file"`
	Line      int    `json:"line,omitempty"`
	Scope     string `json:"scope,omitempty"`
	Untrusted bool   `json:"untrusted,omitempty"`
}

type jsonServer struct {
	Name        string     `json:"name"`
	Transport   string     `json:"transport,omitempty"`
	State       string     `json:"state,omitempty"`
	Tools       *int       `json:"tools,omitempty"`
	ToolsCached bool       `json:"toolsCached,omitempty"`
	Error       string     `json:"error,omitempty"`
	Source      jsonSource `json:"source"`
}

func writeServersJSON(io *IOStreams, set *config.Set, snap *manager.Snapshot, sources bool) error {
	out := struct {
		Servers []jsonServer `json:"servers"`
		// Only with --sources; then always present, [] when empty.
		Files    *[]string     `json:"files,omitempty"`
		Shadowed *[]jsonServer `json:"shadowed,omitempty"`
	}{Servers: []jsonServer{}}
	for _, st := range snap.Servers {
		j := jsonServer{
			Name: st.Name, Transport: st.Transport, State: string(definiteState(st)), ToolsCached: st.ToolsCached,
			Source: jsonSource{st.Source.File, st.Source.Line, st.Source.Scope, st.State == manager.StateUntrusted},
		}
		// Neither a disabled nor an untrusted server was asked: its count
		// is not known to be 0, as the table's "-" says.
		if st.State != manager.StateDisabled && st.State != manager.StateUntrusted {
			n := st.ToolCount
			j.Tools = &n
		}
		if st.Err != nil && st.State != manager.StateConnected {
			j.Error = io.Redact(statusNote(st))
		}
		out.Servers = append(out.Servers, j)
	}
	if sources {
		files := NonNil(set.Files)
		shadowed := []jsonServer{}
		for _, d := range set.Shadowed {
			shadowed = append(shadowed, jsonServer{Name: d.Name, Transport: d.Type,
				Source: jsonSource{File: d.Source.File, Line: d.Source.Line, Scope: d.Source.Scope}})
		}
		out.Files, out.Shadowed = &files, &shadowed
	}
	return WriteJSON(io.Out, out)
}
