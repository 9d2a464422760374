//go:build unix && !linux

package transport

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal does nothing: only Linux has a parent-death signal.
// Elsewhere a SIGKILLed mcpwire leaves its servers to notice the end of
// their stdin.
func setParentDeathSignal(*syscall.SysProcAttr) {}

// startChild starts cmd on the calling thread; release has nothing to do.
func startChild(cmd *exec.Cmd) (release func(), err error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return func() {}, nil
}
