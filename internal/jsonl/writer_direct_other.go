//go:build !linux

package jsonl

import "io"

// nonBlockingWriter is not available here: every line goes through the
// writer goroutine.
func nonBlockingWriter(io.Writer) func([]byte) (int, error) { return nil }
