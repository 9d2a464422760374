//go:build unix && !linux

package transport

// stderrPoller is Linux only (it needs epoll): elsewhere each child's
// stderr is drained by a goroutine of its own (stderrLog.drain).
type stderrPoller struct{}

var stderrPolling stderrPoller

func (*stderrPoller) add(*process) bool    { return false }
func (*stderrPoller) remove(*process) bool { return false }

// watchExit does nothing: without pidfds, watching for the exit would
// hold a thread per child in a wait system call. A child that exits
// while a process it started holds its stdout is noticed when stdout
// ends, or at Close.
func (*stderrPoller) watchExit(*process)   {}
func (*stderrPoller) unwatchExit(*process) {}
