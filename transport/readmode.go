package transport

import (
	"github.com/mcpwire/mcpwire/internal/readmode"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The engine's faster ways of reading, private to this module (see
// internal/readmode): stdio reads in turns, HTTP pushes.
type (
	turnReader = readmode.TurnReader[jsonrpc.Message]
	pusher     = readmode.Pusher[jsonrpc.Message]
	receiver   = readmode.Receiver[jsonrpc.Message]
)
