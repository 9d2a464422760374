package cli

import (
	"fmt"
)

// UsageError is a mistake on the command line: an unknown flag, a missing
// argument, a malformed value. It maps to ExitUsage.
type UsageError struct {
	Msg string
}

func (e *UsageError) Error() string { return e.Msg }

// Usagef returns a *UsageError. Never format a flag's value into it: the
// value may be a secret.
func Usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// ConfigError is a config file that stops the command: one that does not
// parse or cannot be read, or a server's error where errors are fatal
// (--config, --strict). It maps to ExitUsage like a bad command line, but
// no hint to read the command's usage follows it: the file is what to fix.
type ConfigError struct {
	Msg string
}

func (e *ConfigError) Error() string { return e.Msg }

// ToolError reports a tool call whose result had isError set. The result
// has already been printed; this only carries the exit status.
type ToolError struct {
	Tool string
}

func (e *ToolError) Error() string {
	return fmt.Sprintf("tool %q reported an error (isError)", e.Tool)
}

// ConnectError is a failure to reach or start the server: the spawn failed,
// the child died, the HTTP endpoint was unreachable or refused, or the
// handshake failed. Whatever the cause's kind, it maps to ExitConnect.
type ConnectError struct {
	// Target describes the server without secrets (see Target.String).
	Target string
	Err    error
	// StderrTail is the last few lines the server wrote to stderr, shown
	// under the error line; empty when none were kept.
	StderrTail string
	// Hint is advice for the user (connectHint), printed after the tail.
	Hint string
}

func (e *ConnectError) Error() string {
	return fmt.Sprintf("cannot connect to %s: %v", e.Target, e.Err)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// SignInError is a sign-in ("mcpwire login") that did not get tokens: the
// authorization server refused or could not be reached. It maps to
// ExitConnect, as a command that cannot sign in does.
type SignInError struct {
	// Target names the server without secrets.
	Target string
	Err    error
}

func (e *SignInError) Error() string {
	return fmt.Sprintf("signing in to %s: %v", e.Target, e.Err)
}

func (e *SignInError) Unwrap() error { return e.Err }
