//go:build unix && !linux

package transport

// stderrPoller is Linux only (it needs epoll): elsewhere each child's
// stderr is drained by a goroutine of its own (stderrLog.drain).
type stderrPoller struct{}

var stderrPolling stderrPoller

func (*stderrPoller) add(*process) bool    { return false }
func (*stderrPoller) remove(*process) bool { return false }
