package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
)

func newRequestCommand() *Command {
	return &Command{
		Name:    "request",
		Summary: "send any JSON-RPC request and print the raw result",
		Usage:   "request METHOD [--params JSON] [flags] [TARGET]",
		Description: `Send the request METHOD (tools/list, resources/read, a server's own
method, ...) after the handshake, with --params as its params object
("-" reads it from stdin), and print the result as JSON. A JSON-RPC error
from the server is exit 5, as for the other commands. Without TARGET,
--server NAME (or NAME as the first argument) picks a configured server.`,
		Options: func() Options { return &requestOptions{} },
	}
}

// requestOptions are "mcpwire request"'s flags.
type requestOptions struct {
	Target TargetFlags
	Params string
}

func (o *requestOptions) Flags(fs *flag.FlagSet) {
	fs.StringVar(&o.Params, "params", "", "the request's params as a JSON object; - reads it from stdin")
	o.Target.Register(fs)
}

func (o *requestOptions) Run(ctx context.Context, io *IOStreams, p Parsed) error {
	var params any
	if o.Params != "" {
		obj, err := jsonObjectFlag(io.In, "--params", o.Params)
		if err != nil {
			return err
		}
		params = obj
	}
	return o.Target.Each(ctx, io, p, 1, 1, "METHOD", func(c Conn, args []string) error {
		res, err := c.Client.Request(ctx, args[0], params)
		if err != nil {
			return c.Target.Explain(fmt.Sprintf("request %q", args[0]), err)
		}
		if len(res) == 0 {
			res = json.RawMessage("null")
		}
		return WriteJSON(io.Out, res)
	})
}
