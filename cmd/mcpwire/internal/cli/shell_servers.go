package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// shellServers is the shell on the configured servers: the session that
// runs them under the manager (as every command without a TARGET does),
// and the server the commands act on ("" before "use": all of them).
type shellServers struct {
	s       *Session
	mu      sync.Mutex
	current string
}

// runConfigured is the shell on the configured servers. A SERVER
// argument or --server picks the one in use from the start and connects
// only it; otherwise every enabled server is started, as "mcpwire tools"
// starts them, and refused while a project file waits for approval.
func (sh *shell) runConfigured(ctx context.Context, f *TargetFlags, args []string) error {
	name := f.Config.Server
	switch {
	case len(args) > 1:
		return Usagef("too many arguments: mcpwire shell takes one TARGET or SERVER at most")
	case len(args) == 1 && name != "":
		return Usagef("name the server once: as SERVER or with --server, not both")
	case len(args) == 1:
		name = args[0]
	}
	s, err := openConfigured(sh.io, &f.Config, &f.ServerFlags)
	if err != nil {
		return err
	}
	defer s.Close()
	sh.servers = &shellServers{s: s}
	desc := "the configured servers"
	if name != "" {
		if !s.known(name) {
			return s.unknownServer(name)
		}
		if _, err := s.connect(ctx, name); err != nil {
			return err
		}
		sh.servers.current = name
		desc = fmt.Sprintf("the configured servers, using %q", name)
	} else {
		if err := s.refuseUntrusted(); err != nil {
			return err
		}
		if len(s.M.Servers()) == 0 {
			return noServerGiven()
		}
		snap, err := s.StartAll(ctx)
		if err != nil {
			return err
		}
		s.ShowFailed(failures(snap))
		var names []string
		for _, st := range snap.Servers {
			names = append(names, st.Name)
		}
		desc = fmt.Sprintf("%d configured servers (%s)", len(names), strings.Join(names, ", "))
	}
	// Subscribed once the servers are up: what they announce while they
	// start (their first list_changed) is no news to the person.
	unsubscribe := s.M.Subscribe(sh.serverEvent)
	defer unsubscribe()
	return sh.run(ctx, Sanitize(desc))
}

// using is the server in use, "" for all of them.
func (ss *shellServers) using() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.current
}

// conn is the configured server name, connected (or connecting again,
// should it have gone away).
func (ss *shellServers) conn(ctx context.Context, name string) (Conn, error) {
	return ss.s.connect(ctx, name)
}

// names are the configured servers' names, for completion.
func (ss *shellServers) names() []string {
	var out []string
	for _, st := range ss.s.M.Servers() {
		out = append(out, st.Name)
	}
	return out
}

// conn is the connection the commands act on: the TARGET's, or the
// configured server in use.
func (sh *shell) conn(ctx context.Context) (Conn, error) {
	if sh.servers == nil {
		return sh.target.conn(ctx)
	}
	name := sh.servers.using()
	if name == "" {
		return Conn{}, Usagef("no server in use: pick one with use SERVER (servers lists them)")
	}
	return sh.servers.conn(ctx, name)
}

// allServers reports whether the commands act on every configured server
// (none picked with use).
func (sh *shell) allServers() bool {
	return sh.servers != nil && sh.servers.using() == ""
}

// use is "use [SERVER]": the server the commands act on, connected now so
// that a server that cannot start says so at once; without SERVER, all
// of them again.
func (sh *shell) use(ctx context.Context, args []string) error {
	if sh.servers == nil {
		return Usagef("use picks one of the configured servers: start mcpwire shell without a TARGET")
	}
	if len(args) > 1 {
		return Usagef("use SERVER: one server name (servers lists them)")
	}
	name := ""
	if len(args) == 1 {
		name = args[0]
		if !sh.servers.s.known(name) {
			return sh.servers.s.unknownServer(name)
		}
		if _, err := sh.servers.conn(ctx, name); err != nil {
			return err
		}
	}
	sh.servers.mu.Lock()
	sh.servers.current = name
	sh.servers.mu.Unlock()
	sh.forget(func() { sh.tools, sh.uris, sh.prompts = nil, nil, nil })
	if name == "" {
		fmt.Fprintln(sh.io.ErrOut, "mcpwire: using every configured server")
	} else {
		fmt.Fprintf(sh.io.ErrOut, "mcpwire: using server %q\n", name)
	}
	return nil
}

// showServers is "servers": their status, as "mcpwire servers" lists it.
func (sh *shell) showServers(args []string) error {
	if sh.servers == nil {
		return Usagef("servers lists the configured servers: start mcpwire shell without a TARGET")
	}
	if len(args) > 0 {
		return Usagef("servers takes no arguments")
	}
	s := sh.servers.s
	if sh.json {
		return writeServersJSON(sh.io, s.Set, s.M.Snapshot(), false)
	}
	printServers(sh.io, s.Set, s.M.Snapshot(), false)
	return nil
}

// listAllTools is "tools" on every configured server: their tools under
// the names a model sees, as "mcpwire tools" lists them.
func (sh *shell) listAllTools() error {
	snap := sh.servers.s.M.Snapshot()
	if sh.json {
		return WriteJSON(sh.io.Out, struct {
			Tools []configuredTool `json:"tools"`
		}{configuredTools(snap)})
	}
	printTools(sh.io.Out, sh.real.TableWidth(), snap)
	return nil
}

// allTools are every configured server's tools, each under its
// model-facing name, for completion and "tools TOOL".
func (sh *shell) allTools() []mcp.Tool {
	var out []mcp.Tool
	for _, e := range sh.servers.s.M.Tools() {
		t := e.Tool
		t.Name = e.Name
		out = append(out, t)
	}
	return out
}

// callTarget finds what "call REF" calls: the connection and the tool. On
// every configured server REF is a model-facing name, SERVER/TOOL, or a
// tool name only one server has.
func (sh *shell) callTarget(ctx context.Context, ref string) (Conn, *mcp.Tool, error) {
	if !sh.allServers() {
		c, err := sh.conn(ctx)
		if err != nil {
			return Conn{}, nil, err
		}
		list, err := sh.toolList(ctx)
		if err != nil {
			return Conn{}, nil, err
		}
		tool, err := findTool(list, ref)
		return c, tool, err
	}
	s := sh.servers.s
	var server, name string
	var err error
	if strings.Contains(ref, "/") {
		server, name, err = s.resolveRef(ref)
	} else {
		snap := s.M.Snapshot()
		if server, name, err = s.toolByName(snap, ref); server == "" && err == nil {
			err = noSuchTool(snap, ref)
		}
	}
	if err != nil {
		return Conn{}, nil, err
	}
	c, err := sh.servers.conn(ctx, server)
	if err != nil {
		return Conn{}, nil, err
	}
	list, err := c.Client.ListTools(ctx)
	if err != nil {
		return Conn{}, nil, c.Target.Explain("listing tools", err)
	}
	tool, err := findTool(list, name)
	return c, tool, err
}

// serverEvent prints a configured server's notifications above the
// prompt, under the server's name, and forgets a list that changed.
func (sh *shell) serverEvent(e manager.Event) {
	if e.Kind != manager.Notification || e.Notification == nil {
		return
	}
	n := e.Notification
	var line string
	switch n.Method {
	case mcp.NotificationToolsListChanged, mcp.NotificationResourcesListChanged, mcp.NotificationPromptsListChanged:
		if e.Server == sh.servers.using() {
			sh.forgetList(n.Method)
		}
		line = "notification: " + listChangedNotes[n.Method]
	case mcp.NotificationResourceUpdated:
		var u mcp.ResourceUpdated
		if json.Unmarshal(n.Params, &u) != nil {
			return
		}
		line = "notification: resources/updated " + u.URI
	case mcp.NotificationMessage:
		var m mcp.LoggingMessage
		s := sh.servers.s
		if s.Verbose || s.LogLevel != "" || json.Unmarshal(n.Params, &m) != nil {
			return // --verbose and --log-level print them already (showEvent)
		}
		line = LogLine(m)
	default:
		return // progress is the call's live line
	}
	// A log message may have lines of its own: as logText does, those
	// after the first are indented.
	sh.println(sanitizeIndented(fmt.Sprintf("[%s] %s", e.Server, sh.io.Redact(line)), "  "))
}

// serverNames completes "use".
func (sh *shell) serverNames() []string {
	if sh.servers == nil {
		return nil
	}
	return slices.Sorted(slices.Values(sh.servers.names()))
}
