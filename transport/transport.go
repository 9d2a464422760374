// Package transport moves JSON-RPC messages between mcpwire and an MCP
// server: over a child process's stdio (JSON lines), over Streamable HTTP,
// and over the legacy HTTP+SSE transport. A transport frames, parses and
// manages process and HTTP lifecycles; it never correlates ids (that is
// jsonrpc.Conn's job) and knows MCP methods only where its wire rules need
// them (the HTTP transport recognises initialize to capture the session).
package transport

import (
	"context"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Transport opens a connection to one server. Connect's ctx bounds only
// the opening (spawning a process, the first HTTP exchange); it never ends
// the connection later: use the stream's Close for that.
type Transport interface {
	Connect(ctx context.Context) (jsonrpc.Stream, error)
}

// An optional ability of a stream, found by type assertion; it is kept
// out of jsonrpc.Stream so that simple streams stay simple. The abilities
// that only the module's own client uses are private (internal/seam).

// SessionIDer is a stream with a server-issued session (Streamable HTTP).
type SessionIDer interface {
	// SessionID returns the current session id, "" when none.
	SessionID() string
}
