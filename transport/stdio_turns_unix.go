//go:build unix

package transport

import "time"

// ReadTurn lets the engine read stdout in turns, on the goroutine of a
// caller waiting for its response (see readmode.TurnReader). stdout is an
// OS pipe in the runtime's poller, so a read deadline can cut a turn short.
func (s *stdioStream) ReadTurn(deadline time.Time, to receiver) error {
	return s.lineStream.readTurn(deadline, to)
}

// Interrupt cuts the running turn short (see readmode.TurnReader).
func (s *stdioStream) Interrupt() { s.lineStream.interruptTurn() }
