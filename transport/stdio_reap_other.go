//go:build unix && !linux

package transport

import "os"

// awaitExit returns at once: without pidfds, Wait blocks in the wait system
// call, on an OS thread of its own, until the child exits. Reaping starts
// only when someone needs the exit status, so an idle connection holds no
// such thread.
func awaitExit(*os.Process) {}
