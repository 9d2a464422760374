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

// Park parks stdout until the server writes, so that an idle connection
// holds no goroutine (see readmode.Parker); Linux only, elsewhere it
// reports that it cannot.
func (s *stdioStream) Park(ready func()) (parked, retry bool) { return s.lineStream.park(ready) }

// Unpark cancels a pending Park (see readmode.Parker).
func (s *stdioStream) Unpark() bool { return s.lineStream.unpark() }
