package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

func newWatchCommand() *Command {
	return &Command{
		Name:    "watch",
		Summary: "stay connected and print what the server sends until Ctrl-C",
		Usage:   "watch [--subscribe URI ...] [--log-level LEVEL] [--json] [TARGET]",
		Description: `Connect and print every notification the server sends (log messages,
list changes, resource updates, progress) until Ctrl-C or until the server
goes away (exit 3; a server over HTTP is pinged every few seconds, so
that its end is noticed). --subscribe URI (repeatable) subscribes to a
resource's updates first. With --json, each notification is one JSON
line: {"time", "server", "method", "params"}. Without TARGET, watch every
configured server at once (each text line starts with [NAME]), or the one
named with --server NAME (or as the first argument).`,
		Options: func() Options { return &watchOptions{} },
	}
}

// watchOptions are "mcpwire watch"'s flags.
type watchOptions struct {
	Target    TargetFlags
	Output    OutputFlags
	Subscribe StringList
}

func (o *watchOptions) Flags(fs *flag.FlagSet) {
	fs.Var(&o.Subscribe, "subscribe", "subscribe to the resource `URI`'s updates (repeatable)")
	o.Target.Register(fs)
	o.Output.Register(fs, "text", "jsonl", "json")
}

func (o *watchOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	format, err := o.Output.Resolve()
	if err != nil {
		return err
	}
	watch := func(c Conn) error { return o.watch(ctx, io, format, c) }
	if configuredWanted(p) && o.Target.Config.Server == "" && len(p.Args) == 0 {
		return watchConfigured(ctx, io, &o.Target, watch)
	}
	if _, inShell := shellConn(ctx); !inShell && !configuredWanted(p) {
		return o.watchAdHoc(ctx, io, p, watch)
	}
	return o.Target.Each(ctx, io, p, 0, 0, "", func(c Conn, _ []string) error { return watch(c) })
}

// watchAdHoc watches a URL or "-- COMMAND" target. It is Each's ad-hoc
// path plus optInToLists: a 2026-07-28 server sends list_changed only to a
// client that opted in to the list in its subscriptions/listen, and the
// catch-all handler that prints opts in to nothing. (The configured
// servers' manager, and the shell, opt in by themselves.)
func (o *watchOptions) watchAdHoc(ctx context.Context, io *IOStreams, p Parsed, watch func(c Conn) error) error {
	t, _, err := o.Target.adHoc(io, p, 0, 0, "")
	if err != nil {
		return err
	}
	t.clientHook = optInToLists
	return WithClient(ctx, io, t, func(c *mcp.Client) error { return watch(Conn{Client: c, Target: t}) })
}

// optInToLists sets the list_changed callbacks, which is how a client
// opts in to those notifications in the 2026-07-28 era. They do nothing:
// watch prints every notification from its catch-all handler.
func optInToLists(opts *mcp.ClientOptions) {
	nothing := func(context.Context) {}
	opts.OnToolsListChanged, opts.OnResourcesListChanged, opts.OnPromptsListChanged = nothing, nothing, nothing
}

// watchProbeEvery is how often watch pings a server to notice that it
// went away: over HTTP nothing else tells (no request is in flight, and
// a session may hold no open stream).
const watchProbeEvery = 3 * time.Second

// watchLine is a notification as one line of text: the method, then its
// params folded onto the line.
func watchLine(prefix string, n *mcp.Notification) string {
	return prefix + sanitizeLine(n.Method) + " " + Sanitize(oneLine(string(n.Params)))
}

// watch prints c's notifications until ctx ends (ctx.Err()) or the
// server goes away (a *ConnectError).
func (o *watchOptions) watch(ctx context.Context, io *IOStreams, format string, c Conn) error {
	prefix := ""
	if c.Many {
		prefix = "[" + Sanitize(c.Name) + "] "
	}
	unsubscribe := c.Client.OnNotification("", func(_ context.Context, n *mcp.Notification) {
		if n.Method == "notifications/subscriptions/acknowledged" {
			return // the modern era's plumbing of the listen, not news
		}
		if format == "text" {
			fmt.Fprintln(io.Out, watchLine(prefix, n))
			return
		}
		params := n.Params
		if len(params) == 0 {
			params = json.RawMessage("null")
		}
		writeJSONLine(io.Out, struct {
			Time   string          `json:"time"`
			Server string          `json:"server,omitempty"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}{time.Now().UTC().Format(time.RFC3339Nano), c.Name, n.Method, params})
	})
	defer unsubscribe()
	for _, uri := range o.Subscribe {
		if err := c.Client.SubscribeResource(ctx, uri); err != nil {
			return c.Target.Explain(fmt.Sprintf("subscribing to %q", uri), err)
		}
	}
	fmt.Fprintf(io.ErrOut, "mcpwire: watching %s; Ctrl-C to stop\n", c.Target.Desc)
	probe := time.NewTicker(watchProbeEvery)
	defer probe.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.Client.Done():
			return &ConnectError{Target: c.Target.Desc, Err: fmt.Errorf("the server closed the session: %w", c.Client.Err())}
		case <-probe.C:
			if err := c.Client.Ping(ctx); err != nil && ctx.Err() == nil && !answered(err) {
				return &ConnectError{Target: c.Target.Desc, Err: fmt.Errorf("the server stopped answering: %w", err)}
			}
		}
	}
}

// answered reports whether err is the server's own answer (a JSON-RPC
// error), which shows it is still there.
func answered(err error) bool {
	var rpcErr *jsonrpc.Error
	return errors.As(err, &rpcErr) || answeredInHTTPError(err)
}
