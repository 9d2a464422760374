//go:build unix && !linux

package transport

import "syscall"

// groupRunning reports whether a process of group pgid still exists. A
// zombie counts as one: without /proc there is no cheap way to tell.
func groupRunning(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
