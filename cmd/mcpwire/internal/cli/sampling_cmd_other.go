//go:build !unix

package cli

import "os/exec"

// ownGroup leaves cmd as it is: without process groups only the shell is
// killed, and WaitDelay bounds the wait on what it started.
func ownGroup(*exec.Cmd) {}
