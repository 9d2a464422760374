package cli

import (
	"context"

	"github.com/mcpwire/mcpwire/mcp"
)

// WithClient connects to t (see Connect for its errors), runs fn with the
// client and closes the client when fn returns, whatever fn returned, and
// waits for the close: Close flushes the cancels of calls that ctx cut
// short, within the client's own bound, so no exit path leaves the server
// working on a request nobody wants.
func WithClient(ctx context.Context, io *IOStreams, t *Target, fn func(c *mcp.Client) error) error {
	c, err := Connect(ctx, io, t)
	if err != nil {
		return err
	}
	defer c.Close()
	return fn(c)
}
