package manager

import (
	"errors"
	"fmt"
)

// Error is the one error type at the manager's boundary: every error a
// Manager method returns is an *Error naming the server (when there is
// one) and the operation, wrapping the cause. Test causes with errors.Is:
// the sentinels below, jsonrpc.ErrTimeout, jsonrpc.ErrClosed,
// *jsonrpc.Error, context errors.
type Error struct {
	// Server is the server's name, "" when the error concerns none (an
	// unknown tool name, a closed manager).
	Server string
	// Op names what failed: "call tool \"echo\"", "connect", "start".
	Op  string
	Err error
}

func (e *Error) Error() string {
	if e.Server == "" {
		return fmt.Sprintf("mcp manager: %s: %v", e.Op, e.Err)
	}
	return fmt.Sprintf("mcp server %q: %s: %v", e.Server, e.Op, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Causes found inside an *Error.
var (
	// ErrClosed: the manager was closed.
	ErrClosed = errors.New("manager closed")
	// ErrUnknownTool: no tool has that model-facing name.
	ErrUnknownTool = errors.New("no such tool")
	// ErrUnknownServer: no server has that name.
	ErrUnknownServer = errors.New("no such server")
	// ErrDisabled: the server is disabled in its config.
	ErrDisabled = errors.New("server is disabled in its config")
	// ErrInvalidConfig: the server's definition has errors (the wrapped
	// error lists them), so it is never started.
	ErrInvalidConfig = errors.New("server definition is invalid")
	// ErrBreakerOpen: the server failed too often in a short time, so
	// automatic restarts stopped; Connect tries again.
	ErrBreakerOpen = errors.New("server keeps failing; automatic restarts stopped (call Connect to retry)")
	// ErrNotReady: the server did not (re)connect within the wait allowed
	// to a call (Options.ReconnectWait or the call's own timeout).
	ErrNotReady = errors.New("server not connected in time")
	// ErrToolFiltered: the server's enabledTools/disabledTools exclude the
	// tool.
	ErrToolFiltered = errors.New("tool is excluded by the server's enabledTools/disabledTools")
	// ErrAlreadyStarted: Start was called twice.
	ErrAlreadyStarted = errors.New("manager already started")
)
