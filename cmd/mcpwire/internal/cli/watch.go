package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

func newWatchCommand() *Command {
	return &Command{
		Name:    "watch",
		Summary: "stay connected and print what the server sends until Ctrl-C",
		Usage:   "watch [--subscribe URI ...] [--log-level LEVEL] [--json] [TARGET]",
		Description: `Connect and print every notification the server sends (log messages,
list changes, resource updates, progress) until Ctrl-C or until the server
goes away. --subscribe URI (repeatable) subscribes to a resource's
updates first. With --json, each notification is one JSON line:
{"time", "method", "params"}. Without TARGET, watch the configured
server named with --server NAME (or as the first argument).`,
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
	return o.Target.Each(ctx, io, p, 0, 0, "", func(c Conn, _ []string) error {
		unsubscribe := c.Client.OnNotification("", func(n *jsonrpc.Notification) {
			if n.Method == "notifications/subscriptions/acknowledged" {
				return // the modern era's plumbing of the listen, not news
			}
			if format == "text" {
				fmt.Fprintf(io.Out, "%s %s\n", Sanitize(n.Method), Sanitize(oneLine(string(n.Params))))
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
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-c.Client.Done():
			return fmt.Errorf("%s closed the session: %w", c.Target.Desc, c.Client.Err())
		}
	})
}
