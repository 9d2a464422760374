//go:build unix

package transport

import (
	"context"
	"fmt"
	"os"
)

// forkingServer returns a Command for a server that leaves a grandchild in
// its process group: a shell starts a long sleep in the background, then
// becomes this test binary in mode (so the server's pid is the shell's,
// and the group's id).
func forkingServer(exe, mode string) *Command {
	return &Command{
		Command: "sh",
		Args:    []string{"-c", `sleep 1000 & exec "$0"`, exe},
		Env:     map[string]string{childModeEnv: mode},
	}
}

// runClient is the childClient mode: a client process that starts two
// servers and is then SIGKILLed (or sent a Ctrl-C's SIGINT) by the test,
// so that it runs no Close. It prints the servers' pids (their groups'
// ids) and the guard's pid on one line.
func runClient() int {
	exe, err := os.Executable()
	if err != nil {
		return 70
	}
	var pids []any
	for range 2 {
		s, err := forkingServer(exe, childIgnoreTerm).Connect(context.Background())
		if err != nil {
			fmt.Fprintln(os.Stderr, "client:", err)
			return 70
		}
		// The server says it is ready once it runs (after the shell's fork).
		if _, err := s.Read(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "client:", err)
			return 70
		}
		pids = append(pids, s.(*stdioStream).proc.proc.Pid)
	}
	pids = append(pids, guardPid())
	fmt.Println(pids...)
	sleepForever()
	return 0
}
