//go:build unix

package cli

import (
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own and makes the
// context's end kill the whole group: the shell and whatever it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
