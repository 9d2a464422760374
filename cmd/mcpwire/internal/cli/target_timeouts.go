package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// The CLI's two deadlines follow the library's policy (mcp.DefaultTimeout
// and mcp.DefaultToolTimeout): protocol requests (list, read, get,
// complete) answer from what a server has, so --timeout keeps them short;
// a tool builds, tests or waits on a person, so its deadline is an idle
// one that progress pushes forward (--tool-timeout), under a generous cap.

// setDuration is a durationFlag that remembers whether it was given, so
// that an unset flag leaves the library's (or the config's) default alone.
type setDuration struct {
	d   *time.Duration
	set *bool
}

func (s setDuration) String() string {
	if s.d == nil || (*s.d == 0 && !*s.set) {
		return "" // unset: the usage text says the default
	}
	return (*durationFlag)(s.d).String()
}

func (s setDuration) Set(v string) error {
	if err := (*durationFlag)(s.d).Set(v); err != nil {
		return err
	}
	*s.set = true
	return nil
}

// registerTimeouts adds --timeout and --tool-timeout to fs.
func (f *ServerFlags) registerTimeouts(fs *flag.FlagSet) {
	f.Timeout = jsonrpc.DefaultTimeout
	fs.Var(setDuration{&f.Timeout, &f.timeoutSet}, "timeout", "each protocol request's (list, read, get, complete) deadline, `DURATION` (5s, 1m); 0 disables it")
	fs.Var(setDuration{&f.ToolTimeout, &f.toolTimeoutSet}, "tool-timeout", "how long a tool call may go without progress, `DURATION`; each progress starts it again, up to 2h in all; 0 waits forever (default 10m)")
}

// toolPolicy is --tool-timeout as a tool call's idle deadline and cap:
// both zero (the client's policy) when the flag was not given, both
// disabled for 0, and otherwise the idle deadline under the library's cap
// (or under itself, when it is longer than that cap).
func (f *ServerFlags) toolPolicy() (idle, limit time.Duration) {
	switch {
	case !f.toolTimeoutSet:
		return 0, 0
	case f.ToolTimeout == 0:
		return mcp.NoTimeout, mcp.NoTimeout
	}
	return f.ToolTimeout, max(f.ToolTimeout, mcp.DefaultToolMaxTimeout)
}

// callOptions are the per-call deadlines of a tool call to t.
func (t *Target) callOptions(onProgress func(context.Context, mcp.ProgressNotification)) *mcp.CallOptions {
	return &mcp.CallOptions{Timeout: t.ToolTimeout, MaxTimeout: t.ToolMaxTimeout, OnProgress: onProgress}
}

// target describes the configured server name for errors, with the
// deadlines of its tool calls: --tool-timeout, else the server's
// configured "timeout" (every request's deadline, as hosts mean it, also
// when --timeout replaced the template's), else the client's policy.
func (s *Session) target(name string) *Target {
	t := &Target{Desc: fmt.Sprintf("server %q", name), Timeout: s.Timeout, ToolTimeout: s.ToolTimeout, ToolMaxTimeout: s.ToolMaxTimeout, Verbose: s.Verbose, configTimeout: s.configTimeout(name)}
	if def := s.Set.Lookup(name); def != nil && def.TimeoutSet && t.ToolTimeout == 0 {
		t.ToolTimeout = def.Timeout
		if t.ToolTimeout == 0 {
			t.ToolTimeout = mcp.NoTimeout
		}
	}
	return t
}

// configTimeout is the configured server's own "timeout", 0 when its
// definition sets none or sets 0 (no deadline).
func (s *Session) configTimeout(name string) time.Duration {
	if s.Set == nil {
		return 0
	}
	if def := s.Set.Lookup(name); def != nil && def.TimeoutSet {
		return def.Timeout
	}
	return 0
}

// errCallCap is why a call's context ended when --timeout capped it.
var errCallCap = errors.New("the call's --timeout ran out")

// capCall bounds ctx by t.CallCap, when set.
func (t *Target) capCall(ctx context.Context) (context.Context, context.CancelFunc) {
	if t.CallCap <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeoutCause(ctx, t.CallCap, errCallCap)
}

// explainCap words a call that --timeout cut short (exit 6, as every
// deadline), since the client only saw its context end.
func (t *Target) explainCap(callCtx context.Context, err error) error {
	if err == nil || !errors.Is(context.Cause(callCtx), errCallCap) {
		return err
	}
	return &callCapError{cap: t.CallCap}
}

// callCapError is a call that ran longer than --timeout.
type callCapError struct{ cap time.Duration }

func (e *callCapError) Error() string {
	return fmt.Sprintf("the call ran longer than --timeout %s, which caps the whole call (raise it, or leave it out: --tool-timeout alone then bounds the time without progress)", e.cap)
}

func (e *callCapError) Unwrap() error { return context.DeadlineExceeded }
