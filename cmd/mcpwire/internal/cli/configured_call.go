package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// withConfiguredTool is "mcpwire call" without a target: ref is SERVER/TOOL (the
// server's own tool name; only that server is started) or a model-facing
// name such as mcp__github__create_issue (every server is started, since
// names depend on all their tools). It connects what it needs and runs fn
// with the server's live client and the tool's own name.
func withConfiguredTool(ctx context.Context, io *IOStreams, f *ConfigFlags, sf *ServerFlags, ref string,
	fn func(t *Target, c *mcp.Client, tool string) error) error {
	s, err := openConfigured(io, f, sf)
	if err != nil {
		return err
	}
	defer s.Close()
	server, tool, err := s.resolve(ctx, ref)
	if err != nil {
		return err
	}
	t := s.target(server)
	if err := s.M.Connect(ctx, server); err != nil {
		return connectError(t, err)
	}
	c, err := s.M.Client(ctx, server)
	if err != nil {
		return connectError(t, err)
	}
	return fn(t, c, tool)
}

// resolve turns ref into a server and its own tool name.
func (s *Session) resolve(ctx context.Context, ref string) (server, tool string, err error) {
	if strings.Contains(ref, "/") {
		return s.resolveRef(ref)
	}
	// A model-facing name may be any server's: none may be untrusted.
	if err := s.refuseUntrusted(); err != nil {
		return "", "", err
	}
	snap, err := s.StartAll(ctx)
	if err != nil {
		return "", "", err
	}
	server, tool, err = s.toolByName(snap, ref)
	if server != "" || err != nil {
		return server, tool, err
	}
	failed := failures(snap)
	s.ShowFailed(failed)
	if len(failed) > 0 {
		return "", "", failureError(failed, len(snap.Servers))
	}
	return "", "", noSuchTool(snap, ref)
}

// resolveRef resolves SERVER/TOOL: the configured server and its own name
// for the tool.
func (s *Session) resolveRef(ref string) (server, tool string, err error) {
	// Model-facing names never hold "/"; server names might, so every
	// split is tried, the shortest server name first.
	for i := range len(ref) {
		if ref[i] != '/' {
			continue
		}
		server, tool = ref[:i], ref[i+1:]
		if def := s.Set.Lookup(server); def != nil {
			if tool == "" {
				return "", "", Usagef("%q names no tool after the server", ref)
			}
			if !def.ToolAllowed(tool) {
				return "", "", Usagef("tool %q of server %q is excluded by its enabledTools/disabledTools", tool, server)
			}
			return server, tool, nil
		}
		if _, ok := s.M.Server(server); ok {
			// Known only as an invalid definition: Connect says why.
			return server, tool, nil
		}
	}
	return "", "", Usagef("no configured server is named %q (\"mcpwire servers\" lists them)", ref[:strings.IndexByte(ref, '/')])
}

// toolByName finds the tool that ref names among the servers' tools of
// snap: a model-facing name, else one server's own name for its tool (as
// "mcpwire tools SERVER" and the server's documentation show it). The
// server is "" when none offers it.
func (s *Session) toolByName(snap *manager.Snapshot, ref string) (server, tool string, err error) {
	if e, ok := s.M.Tool(ref); ok {
		return e.Server, e.Tool.Name, nil
	}
	server, err = toolOwner(snap, ref)
	return server, ref, err
}

// noSuchTool is the usage error for a tool name no server offers, with
// the nearest names as suggestions.
func noSuchTool(snap *manager.Snapshot, ref string) error {
	var names []string
	for _, e := range snap.Tools {
		names = append(names, e.Name, e.Tool.Name)
	}
	return Usagef("no configured server offers a tool named %q%s (\"mcpwire tools\" lists them; SERVER/TOOL names a server's tool directly)", ref, didYouMean(ref, slices.Compact(slices.Sorted(slices.Values(names)))))
}

// toolOwner finds the one server whose own tool is named tool; "" when
// none is, and a usage error naming the choices when several are.
func toolOwner(snap *manager.Snapshot, tool string) (string, error) {
	var owners []string
	for _, e := range snap.Tools {
		if e.Tool.Name == tool && !slices.Contains(owners, e.Server) {
			owners = append(owners, e.Server)
		}
	}
	switch len(owners) {
	case 0:
		return "", nil
	case 1:
		return owners[0], nil
	}
	refs := make([]string, len(owners))
	for i, o := range owners {
		refs[i] = o + "/" + tool
	}
	return "", Usagef("%d configured servers offer a tool named %q: name one (%s)", len(owners), tool, strings.Join(refs, ", "))
}

// connectError makes a manager failure to reach a server exit with status
// 3, unless it is the user's mistake.
func connectError(t *Target, err error) error {
	if errors.Is(err, manager.ErrUntrusted) {
		return asUntrusted(err)
	}
	switch {
	case errors.Is(err, manager.ErrDisabled):
		return Usagef("%s is disabled in its config file (\"disabled\": true, or \"enabled\": false); enable it there to use it", t.Desc)
	case errors.Is(err, manager.ErrUnknownServer):
		return Usagef("%s", err.Error())
	}
	// A broken definition is the config file's to fix, as it is under
	// --config: exit 2, not a failure to connect.
	if text, ok := invalidDefinition(err); ok {
		return &ConfigError{Msg: fmt.Sprintf("%s has an invalid definition: %s", t.Desc, text)}
	}
	// The target already names the server.
	var me *manager.Error
	if errors.As(err, &me) {
		err = me.Err
	}
	_, tail := splitStderrTail(err)
	return &ConnectError{Target: t.Desc, Err: shortenNotMCP(deadlineAsTimeout(err, t.Timeout, t.configTimeout)), StderrTail: tail, Hint: t.hintFor(err)}
}

// deadlineAsTimeout words a handshake cut off by the manager's connect
// deadline (mcp.ErrTimeout, or the context's deadline) as the
// -- COMMAND form words its own: "timed out after 30s". Two deadlines
// bound a handshake: the manager's (the --timeout, for the whole connect)
// and, when the server's definition sets "timeout", each request's own.
// The manager's error says it was its own (ConnectTimeout); otherwise a
// shorter configured "timeout" is what was hit. A shorter one is not
// always: a request sent late in the connect (after a probe the server
// dropped, a slow initialize) has its deadline after the manager's. The
// hint names where to raise the one that ran out.
func deadlineAsTimeout(err error, timeout, configured time.Duration) error {
	if err == nil || !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, mcp.ErrTimeout) {
		return err
	}
	var connect interface{ ConnectTimeout() time.Duration }
	if configured > 0 && (timeout <= 0 || configured < timeout) && !errors.As(err, &connect) {
		return &connectTimeout{timeout: configured, fromConfig: true, err: err}
	}
	if timeout <= 0 {
		return err
	}
	return &connectTimeout{timeout: timeout, err: err}
}

// connectTimeout is a connect that ran out of --timeout, or of the
// server's configured "timeout" when that was shorter.
type connectTimeout struct {
	timeout    time.Duration
	fromConfig bool
	err        error
}

func (e *connectTimeout) Error() string {
	// The request the server left unanswered, when the error knows it
	// (jsonrpc's call errors, the manager's connect timeout): a connect
	// is the handshake and the first listing, and a server that hangs on
	// tools/list is not one that hangs on initialize.
	waiting := ""
	var m interface{ Method() string }
	if errors.As(e.err, &m) && m.Method() != "" {
		waiting = " waiting for the answer to " + m.Method()
	}
	if e.fromConfig {
		return fmt.Sprintf("the handshake timed out after %s%s (the server's \"timeout\" in its config; raise it there, or set it to 0 to wait forever)", e.timeout, waiting)
	}
	return fmt.Sprintf("the handshake timed out after %s%s (raise --timeout, or set it to 0 to wait forever)", e.timeout, waiting)
}

func (e *connectTimeout) Unwrap() error { return e.err }

// hintFor is t's connect hint, or "" when it has none.
func (t *Target) hintFor(err error) string {
	if t.hint == nil {
		return ""
	}
	return t.hint(err)
}
