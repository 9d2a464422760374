//go:build !linux

package server

import "os"

// cuttableOutput returns out: only Linux can open a pipe again with a
// mode of its own (see stdout_linux.go), so a write to a blocking stdout
// goes through the line stream's hand-off.
func cuttableOutput(out *os.File) (*os.File, func() error) {
	return out, func() error { return nil }
}
