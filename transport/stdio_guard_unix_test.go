//go:build unix

package transport

// guardPid returns the guard's pid, or 0 if none runs.
func guardPid() int {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	if guard.proc == nil {
		return 0
	}
	return guard.proc.Pid
}

// guardKnows returns how many servers the guard was told hold group pgid.
func guardKnows(pgid int) int {
	guard.mu.Lock()
	defer guard.mu.Unlock()
	return guard.groups[pgid]
}
