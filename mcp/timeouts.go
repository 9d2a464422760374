package mcp

import (
	"context"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Deadlines. Protocol requests and tool calls get different policies,
// because they fail differently: a server answers a listing or a read from
// what it has, so one that takes half a minute is stuck; a tool builds,
// tests, crawls or waits on a person for minutes, and must be judged by
// whether it still shows signs of life.
const (
	// DefaultTimeout is the deadline of a protocol request.
	DefaultTimeout = jsonrpc.DefaultTimeout
	// DefaultMaxTimeout caps how long progress can keep a protocol
	// request alive.
	DefaultMaxTimeout = jsonrpc.DefaultMaxTimeout
	// DefaultToolTimeout is a tool call's idle deadline: how long it may
	// go without a progress notification. Ten minutes covers the builds
	// and test runs of most projects without progress, and is the
	// request timeout one widely used host already applies to MCP
	// servers, so servers are written to live with it.
	DefaultToolTimeout = 10 * time.Minute
	// DefaultToolMaxTimeout caps a tool call that keeps reporting
	// progress: long enough for a full build and test cycle of a large
	// project, short enough that a tool stuck in a progress loop does not
	// hold an agent for the rest of the day.
	DefaultToolMaxTimeout = 2 * time.Hour
	// NoTimeout, given as any timeout, disables that deadline.
	NoTimeout = jsonrpc.NoTimeout
)

// toolPolicy resolves a tool timeout option: zero takes the request
// option, then def; NoTimeout stays as it is (the engine reads it as
// "none").
func toolPolicy(d, request, def time.Duration) time.Duration {
	if d == 0 {
		d = request
	}
	if d == 0 {
		return def
	}
	if d < 0 {
		return NoTimeout
	}
	return d
}

type requestTimeoutKey struct{}

// WithRequestTimeout returns a ctx under which the client's protocol
// requests (and tool calls without a CallOptions.Timeout) use d as their
// deadline instead of the client's; NoTimeout disables it. It is the
// per-call switch for the methods that take no options.
func WithRequestTimeout(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, requestTimeoutKey{}, d)
}

// requestOptions are the engine's options for a protocol request under
// ctx: nil (the client's deadline) unless WithRequestTimeout set one.
func requestOptions(ctx context.Context) *jsonrpc.CallOptions {
	if d, ok := ctx.Value(requestTimeoutKey{}).(time.Duration); ok && d != 0 {
		return &jsonrpc.CallOptions{Timeout: d}
	}
	return nil
}
