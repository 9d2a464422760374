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

// Optional abilities of a stream, found by type assertion. They are kept
// out of jsonrpc.Stream so that simple streams stay simple.

// SessionIDer is a stream with a server-issued session (Streamable HTTP).
type SessionIDer interface {
	// SessionID returns the current session id, "" when none.
	SessionID() string
}

// ProtocolVersionSetter is a stream whose wire format depends on the
// negotiated protocol version (Streamable HTTP sends it as a header from
// 2025-06-18 on). The MCP client calls it right after the handshake.
type ProtocolVersionSetter interface {
	SetProtocolVersion(version string)
}

// InputPending is a stream that knows how much of what was written to it
// the server has not read yet (a stdio child's stdin pipe, on Linux). The
// MCP client's era probe waits for a server that has not read its probe
// yet, rather than taking its silence for a legacy server's.
type InputPending interface {
	// PendingInput returns the number of unread bytes; ok is false when
	// it cannot be known.
	PendingInput() (n int, ok bool)
}

// ListenerHolder is a stream that opens, once notifications/initialized
// went through, a channel on which the server may speak unprompted
// (Streamable HTTP's GET listener). The MCP client holds it back when the
// session has no use for what could arrive there: no notification
// callback and no server→client request declared. That saves a request
// and, with a server that keeps the stream open, a connection per session.
type ListenerHolder interface {
	// HoldListener keeps the channel closed until ReleaseListener. It is
	// called before notifications/initialized.
	HoldListener()
	// ReleaseListener lifts the hold: the channel opens at once if the
	// session is initialized, else after notifications/initialized, and
	// ReleaseListener waits, within ctx and a short bound, until it is
	// established. Without a hold it does nothing.
	ReleaseListener(ctx context.Context)
}
