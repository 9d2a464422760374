package mcp

import "github.com/mcpwire/mcpwire/jsonrpc"

// The protocol's errors, reachable from this package so that everyday
// code need not import jsonrpc.

// Error is a JSON-RPC error object as the server sent it: errors.As(err,
// new(*mcp.Error)) finds it in the chain of a failed call.
type Error = jsonrpc.Error

// Errors of the connection that calls wrap; test with errors.Is.
var (
	// ErrTimeout: a request's own deadline passed (see
	// ClientOptions.Timeout and ToolTimeout). When the caller's ctx
	// deadline ends a request first, the error matches
	// context.DeadlineExceeded instead, never ErrTimeout.
	ErrTimeout = jsonrpc.ErrTimeout
	// ErrClosed: the session ended before the request completed.
	ErrClosed = jsonrpc.ErrClosed
)
