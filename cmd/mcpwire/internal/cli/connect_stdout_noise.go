package cli

import (
	"errors"
	"fmt"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// stdoutNoise remembers the first frame a server wrote that is not
// JSON-RPC while the client connects. A stdio server that logs to stdout
// (a banner, a debug line) is a common mistake; when its handshake then
// fails, the line is what tells the user why, and without --verbose it
// was never shown.
type stdoutNoise struct {
	mu    sync.Mutex
	first *jsonrpc.DecodeError
	count int
}

// hook is an mcp.ClientOptions.ErrorHook that records decode errors and
// passes every error on to next (nil: none).
func (n *stdoutNoise) hook(next func(error)) func(error) {
	return func(err error) {
		if d := (*jsonrpc.DecodeError)(nil); errors.As(err, &d) {
			n.mu.Lock()
			if n.first == nil {
				n.first = d
			}
			n.count++
			n.mu.Unlock()
		}
		if next != nil {
			next(err)
		}
	}
}

// hint says what was skipped, or "" when nothing was. The excerpt is the
// server's own output, sanitized by the caller's printing.
func (n *stdoutNoise) hint() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.first == nil {
		return ""
	}
	what := "a line that is"
	if n.count > 1 {
		what = fmt.Sprintf("%d lines that are", n.count)
	}
	return fmt.Sprintf("the server wrote %s not JSON-RPC before it failed (the first starts %q): a stdio server must write only protocol messages to stdout, its logs to stderr", what, n.first.Excerpt)
}
