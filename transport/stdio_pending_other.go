//go:build unix && !linux

package transport

// PendingInput is not known on this system (see the Linux version).
func (s *stdioStream) PendingInput() (int, bool) { return 0, false }
