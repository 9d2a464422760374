package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Defaults of Command.
const (
	// defaultCloseTimeout is how long Close waits for the server to exit
	// after closing its stdin, before sending SIGTERM.
	defaultCloseTimeout = 2 * time.Second
	// defaultKillTimeout is how long Close waits after SIGTERM before
	// sending SIGKILL.
	defaultKillTimeout = 2 * time.Second
)

// stderrKeep is how much of the server's stderr is kept for error messages.
const stderrKeep = 64 << 10

// Command is the stdio transport: it starts a local MCP server as a child
// process and speaks JSON lines over its stdin and stdout.
//
// The child gets a safe subset of this process's environment (see
// AllowedEnv) plus Env, unless InheritEnv passes all of it. It runs in its
// own process group, so that signals sent on Close reach the processes it
// started, including those still running after the server itself exited.
// It is never tied to Connect's ctx: only the stream's Close (or the
// child's own exit) ends it. Should this process die without a Close
// (SIGKILL, a crash), a small guard process (/bin/sh, one per process)
// kills the groups of its servers, so nothing is left behind; where no
// shell may run, Linux gives each child a parent-death signal instead,
// which ends the server but not what it started. The stdio transport runs
// only on unix systems: elsewhere (Windows) Connect fails with
// errors.ErrUnsupported.
//
// Its stderr is always read, so a server that logs a lot never stalls; the
// last 64 KiB are kept, and when the server exits unexpectedly Read
// returns an *ExitError with its exit status and the last lines of stderr.
//
// A Command may be connected many times; each Connect starts a new
// process. Do not change its fields while a Connect is in progress.
type Command struct {
	// Command is the program to run: a name looked up in the child's
	// PATH (as exec.LookPath would, absolute entries only), or a path
	// (a relative path is taken relative to Dir).
	Command string
	// Args are the arguments after the program name.
	Args []string
	// Env is added to the child's environment and wins over inherited
	// variables. Values never appear in errors.
	Env map[string]string
	// InheritEnv passes this process's whole environment instead of the
	// allow-list. Env is still applied on top.
	InheritEnv bool
	// Dir is the child's working directory; empty means this process's.
	Dir string
	// Stderr, when set, receives a live copy of the child's stderr. It is
	// written from a single goroutine of the stream, which only a stream
	// with a tee has; it should not block for long, since the child's
	// stderr is not drained meanwhile. After its first error it is no
	// longer written to. The Command does not close it.
	Stderr io.Writer
	// MaxMessageSize, when positive, is the largest message accepted from
	// the server in bytes; a larger one is skipped and Read reports a
	// *jsonrpc.DecodeError. Zero means no limit.
	MaxMessageSize int
	// CloseTimeout is how long Close waits for the child to exit after
	// closing its stdin; zero means 2 s. It also bounds how long Read
	// waits for the exit status after the child closed stdout.
	CloseTimeout time.Duration
	// KillTimeout is how long Close waits after SIGTERM before SIGKILL;
	// zero means 2 s. After SIGKILL, Close waits up to KillTimeout or 5 s,
	// whichever is longer, for the child to be reaped.
	KillTimeout time.Duration
}

var _ Transport = (*Command)(nil)

// Connect starts the server and returns a stream over its stdio. ctx only
// bounds the start: cancelling it later does not affect the child. The
// stream owns the process: its Close closes stdin, waits CloseTimeout,
// sends SIGTERM to the process group, waits KillTimeout, sends SIGKILL, and
// reaps the child.
func (c *Command) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	env, err := childEnv(environ(), c.InheritEnv, c.Env)
	if err != nil {
		return nil, err
	}
	path, err := lookPath(c.Command, envValue(env, "PATH"), c.Dir)
	if err != nil {
		return nil, err
	}
	s, err := startProcess(c, path, env)
	if err != nil {
		return nil, err
	}
	return s, nil
}

func (c *Command) validate() error {
	switch {
	case c.Command == "":
		return errors.New("transport: stdio command is empty")
	case c.MaxMessageSize < 0:
		return fmt.Errorf("transport: MaxMessageSize of %q is negative (%d)", c.Command, c.MaxMessageSize)
	case c.CloseTimeout < 0:
		return fmt.Errorf("transport: CloseTimeout of %q is negative (%s)", c.Command, c.CloseTimeout)
	case c.KillTimeout < 0:
		return fmt.Errorf("transport: KillTimeout of %q is negative (%s)", c.Command, c.KillTimeout)
	}
	return nil
}

func (c *Command) closeTimeout() time.Duration {
	if c.CloseTimeout == 0 {
		return defaultCloseTimeout
	}
	return c.CloseTimeout
}

func (c *Command) killTimeout() time.Duration {
	if c.KillTimeout == 0 {
		return defaultKillTimeout
	}
	return c.KillTimeout
}
