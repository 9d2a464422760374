package mcp

import (
	"context"
	"errors"

	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// abandonIfUnanswered tells s, before the client closes it, that its
// server never answered the handshake in time (err, on ctx): a stdio
// child is then ended at once rather than given CloseTimeout and
// KillTimeout to exit, which made a Connect on a silent server return
// seconds after its ctx's deadline. A server that answered, even with an
// error, is closed gracefully as always.
func abandonIfUnanswered(ctx context.Context, s jsonrpc.Stream, err error) {
	if ctx.Err() == nil && !errors.Is(err, jsonrpc.ErrTimeout) {
		return
	}
	if a, ok := s.(seam.Abandoner); ok {
		a.Abandon()
	}
}
