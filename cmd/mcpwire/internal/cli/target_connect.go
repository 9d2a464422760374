package cli

import (
	"context"
	"flag"

	"github.com/mcpwire/mcpwire/mcp"
)

// ServerOptions are the flags of a command that talks to the one server
// named on its command line: which server and how (ServerFlags), and
// --json. A command keeps one in its closure and registers it with
// Flags: opts.Register (adding its own flags first when it has any).
type ServerOptions struct {
	ServerFlags
	JSON bool
}

// Register adds the server flags and --json to fs.
func (o *ServerOptions) Register(fs *flag.FlagSet) {
	o.ServerFlags.Register(fs)
	JSONFlag(fs, &o.JSON)
}

// ResolveArgs resolves the server named on the command line (see Resolve)
// and checks that exactly n positional arguments remain besides it, what
// naming them for the error (see ExactArgs). Nothing is started yet, so a
// command can check its other flags before the server runs.
func (f *ServerFlags) ResolveArgs(io *IOStreams, p Parsed, n int, what string) (*Target, []string, error) {
	t, args, err := f.Resolve(io, p)
	if err != nil {
		return nil, nil, err
	}
	if err := ExactArgs(args, n, what); err != nil {
		return nil, nil, err
	}
	return t, args, nil
}

// WithServer is the whole life of a command that talks to one server:
// resolve the server and check the n positional arguments (ResolveArgs),
// connect (Connect), run fn with the client, the target (for
// Target.Explain) and the arguments, and close the client when fn
// returns. A command that must check more of its input before the server
// starts calls ResolveArgs and WithClient itself.
func (o *ServerOptions) WithServer(ctx context.Context, io *IOStreams, p Parsed, n int, what string,
	fn func(c *mcp.Client, t *Target, args []string) error) error {
	t, args, err := o.ResolveArgs(io, p, n, what)
	if err != nil {
		return err
	}
	return WithClient(ctx, io, t, func(c *mcp.Client) error {
		return fn(c, t, args)
	})
}

// WithClient connects to t (see Connect for its errors), runs fn with the
// client and closes the client when fn returns, whatever fn returned.
func WithClient(ctx context.Context, io *IOStreams, t *Target, fn func(c *mcp.Client) error) error {
	c, err := Connect(ctx, io, t)
	if err != nil {
		return err
	}
	defer c.Close()
	return fn(c)
}
