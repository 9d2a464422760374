package transport

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// groupRunning reports whether a process of group pgid is still running.
// kill(-pgid, 0) alone cannot say: it counts zombies, which a container's
// init may never reap, so on Linux the group's members are looked up in
// /proc, and zombies do not count.
func groupRunning(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false // ESRCH: the group is empty
	}
	members, err := runningInGroup(pgid, 1)
	return err != nil || len(members) > 0 // unknown counts as running, as kill says
}

// runningInGroup returns the pids of up to limit processes of group pgid
// that run (are not zombies), from /proc.
func runningInGroup(pgid, limit int) ([]int, error) {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if pg, state, ok := procGroupAndState(name); ok && pg == pgid && state != 'Z' && state != 'X' {
			pids = append(pids, pid)
			if len(pids) == limit {
				break
			}
		}
	}
	return pids, nil
}

// procGroupAndState reads a process's group id and state from
// /proc/PID/stat. The command name, in parentheses, may hold any byte, so
// the fields are counted after its last closing parenthesis.
func procGroupAndState(pid string) (pgid int, state byte, ok bool) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, 0, false // it exited meanwhile
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	// After ") ": state ppid pgrp …
	f := bytes.Fields(b[i+1:])
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	pg, err := strconv.Atoi(string(f[2]))
	if err != nil {
		return 0, 0, false
	}
	return pg, f[0][0], true
}
