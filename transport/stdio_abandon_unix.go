//go:build unix

package transport

import "time"

// abandonGrace is how long an abandoned child has between SIGTERM and
// SIGKILL: enough for a process that exits on SIGTERM to do so (and for
// its group to follow), short enough that a Connect whose ctx ran out
// returns close to its deadline.
const abandonGrace = 100 * time.Millisecond

// Abandon makes the Close that follows end the child at once: SIGTERM
// with no wait for it to exit on EOF, SIGKILL after abandonGrace (or
// KillTimeout, if shorter). The MCP client calls it for a server whose
// handshake ran out of time (see seam.Abandoner). It must be called
// before Close; after Close begins it changes nothing.
func (s *stdioStream) Abandon() { s.proc.abandoned.Store(true) }

// stopTimeouts are shutdown's two waits: CloseTimeout and KillTimeout, or
// none and abandonGrace for an abandoned child.
func (p *process) stopTimeouts() (closeWait, killWait time.Duration) {
	if p.abandoned.Load() {
		return 0, min(abandonGrace, p.killTimeout)
	}
	return p.closeTimeout, p.killTimeout
}
