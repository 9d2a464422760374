package manager

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
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
	// The package's own causes say "manager: " on their own; after this
	// prefix that would be said twice.
	cause := strings.TrimPrefix(fmt.Sprint(e.Err), "manager: ")
	if e.Server == "" {
		return fmt.Sprintf("mcp manager: %s: %s", e.Op, cause)
	}
	return fmt.Sprintf("mcp server %q: %s: %s", e.Server, e.Op, cause)
}

func (e *Error) Unwrap() error { return e.Err }

// Causes found inside an *Error.
//
// ErrShutdown and jsonrpc.ErrClosed (mcp.ErrClosed) are different facts,
// named apart: ErrShutdown says the manager was closed (a call cut off by
// Close carries it, and not jsonrpc.ErrClosed); jsonrpc.ErrClosed says one
// server's connection ended under a call (a crash), with the reason (exit
// status, stderr tail) wrapped beside it.
var (
	// ErrShutdown: the manager was closed (Close), before or during the
	// operation.
	ErrShutdown = errors.New("manager: shut down")
	// ErrUnknownTool: no tool has that model-facing name, or the server
	// has no tool of that name that its enabledTools/disabledTools allow.
	ErrUnknownTool = errors.New("manager: no such tool")
	// ErrUnknownServer: no server has that name.
	ErrUnknownServer = errors.New("manager: no such server")
	// ErrDisabled: the server is disabled in its config.
	ErrDisabled = errors.New("manager: server disabled")
	// ErrInvalidConfig: the server's definition has errors (the wrapped
	// error lists them), so it is never started.
	ErrInvalidConfig = errors.New("manager: invalid server definition")
	// ErrUntrusted: the server comes from a project config file the user
	// has not approved (see *UntrustedError), so it is never started.
	ErrUntrusted = errors.New("manager: untrusted project config")
	// ErrBreakerOpen: the server failed too often in a row, so automatic
	// restarts stopped (see *BreakerError).
	ErrBreakerOpen = errors.New("manager: breaker open")
	// ErrNotReady: the server did not (re)connect within the wait allowed
	// to a call (Options.ReconnectWait or the call's own timeout).
	ErrNotReady = errors.New("manager: server not ready")
)

// UntrustedError is why a server of a project config file is not
// started: the user has not approved the file (config.Approve) and
// Options.StartUntrusted is off. It matches ErrUntrusted with errors.Is.
type UntrustedError struct {
	File string
}

func (e *UntrustedError) Error() string {
	return fmt.Sprintf("manager: project config file %s is not trusted: its servers start once the user approves it", e.File)
}

func (e *UntrustedError) Is(target error) bool { return target == ErrUntrusted }

// BreakerError is why a server's breaker opened: Failures failures in a
// row, the last of them Last. It matches ErrBreakerOpen with errors.Is.
// Only Connect restarts the server.
type BreakerError struct {
	Failures int
	Last     error
}

func (e *BreakerError) Error() string {
	return fmt.Sprintf("manager: breaker open after %d failures in a row; automatic restarts stopped, Connect retries; last failure: %v",
		e.Failures, e.Last)
}

func (e *BreakerError) Is(target error) bool { return target == ErrBreakerOpen }

func (e *BreakerError) Unwrap() error { return e.Last }

// connectTimeoutError is a connection attempt that ran out of
// Options.ConnectTimeout. It matches jsonrpc.ErrTimeout, as a request
// past its own deadline does, and not context.DeadlineExceeded: the
// caller's ctx did not end. Its text keeps the cause's.
type connectTimeoutError struct {
	after time.Duration
	cause error
}

func (e *connectTimeoutError) Error() string {
	return fmt.Sprintf("connect timed out after %s (ConnectTimeout): %v", e.after, e.cause)
}

func (e *connectTimeoutError) Unwrap() error { return jsonrpc.ErrTimeout }

// ConnectTimeout is the Options.ConnectTimeout that ran out. A request's
// own deadline matches jsonrpc.ErrTimeout too; this method tells the
// connect's from it (the CLI words the two apart).
func (e *connectTimeoutError) ConnectTimeout() time.Duration { return e.after }

// Method is the method of the request the connect was waiting for when it
// ran out, "" when not known: the cause's (see jsonrpc's call errors),
// which this error does not unwrap to.
func (e *connectTimeoutError) Method() string {
	var m interface{ Method() string }
	if errors.As(e.cause, &m) {
		return m.Method()
	}
	return ""
}
