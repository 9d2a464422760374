//go:build !linux

package server

import "os"

// CuttableOutput returns out: only Linux can open a pipe again with a
// mode of its own (see stdout_linux.go), so a write to a blocking stdout
// goes through the line stream's hand-off.
func CuttableOutput(out *os.File) (*os.File, func() error) {
	return out, func() error { return nil }
}

// ReopenPipe is Linux's (stdout_linux.go); elsewhere it returns nil.
func ReopenPipe(*os.File, int) *os.File { return nil }
