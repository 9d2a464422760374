//go:build unix

package transport

import (
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ReadTurn lets the engine read stdout in turns, on the goroutine of a
// caller waiting for its response (see jsonrpc.TurnReader). stdout is an
// OS pipe in the runtime's poller, so a read deadline can cut a turn short.
func (s *stdioStream) ReadTurn(deadline time.Time, to jsonrpc.Receiver) error {
	return s.lineStream.readTurn(deadline, to)
}

// Interrupt cuts the running turn short (see jsonrpc.TurnReader).
func (s *stdioStream) Interrupt() { s.lineStream.interruptTurn() }
