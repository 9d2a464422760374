package manager

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// CallTool calls a tool by its model-facing name (see Tools). When the
// tool's server is not connected (still starting, reconnecting, or lazy
// and not yet started), the call starts it if needed and waits for it, at
// most Options.ReconnectWait, opts.Timeout (when positive) and ctx; then
// it fails with ErrNotReady. A name no tool has fails with ErrUnknownTool,
// after waiting (as long) for servers still on their first attempt, whose
// tools are not known yet. A call is never retried: a connection that
// ends while the call is in flight fails it.
//
// Every error is an *Error naming the server.
func (m *Manager) CallTool(ctx context.Context, name string, args any, opts *mcp.CallOptions) (*mcp.CallToolResult, error) {
	s, tool, ok := m.lookup(name)
	if !ok && m.waitFirstAttempts(ctx, callWait(m.opts.ReconnectWait, opts)) {
		s, tool, ok = m.lookup(name)
	}
	if !ok {
		if m.isClosed() {
			return nil, &Error{Op: fmt.Sprintf("call tool %q", name), Err: ErrShutdown}
		}
		return nil, &Error{Op: fmt.Sprintf("call tool %q", name), Err: ErrUnknownTool}
	}
	return m.callTool(ctx, s, tool, args, opts)
}

// CallServerTool calls the tool named tool (the server's own name for it)
// of the named server, as CallTool does. A tool excluded by the server's
// enabledTools/disabledTools fails with ErrUnknownTool, saying so.
func (m *Manager) CallServerTool(ctx context.Context, server, tool string, args any, opts *mcp.CallOptions) (*mcp.CallToolResult, error) {
	s := m.byName[server]
	if s == nil {
		return nil, &Error{Server: server, Op: fmt.Sprintf("call tool %q", tool), Err: ErrUnknownServer}
	}
	return m.callTool(ctx, s, tool, args, opts)
}

func (m *Manager) callTool(ctx context.Context, s *server, tool string, args any, opts *mcp.CallOptions) (*mcp.CallToolResult, error) {
	// The op is named only on failure: a gateway routes every call here.
	op := func() string { return fmt.Sprintf("call tool %q", tool) }
	if s.cfg != nil && !s.cfg.ToolAllowed(tool) {
		return nil, &Error{Server: s.name, Op: op(), Err: fmt.Errorf("%w: excluded by the server's enabledTools/disabledTools", ErrUnknownTool)}
	}
	c, err := s.ready(ctx, callWait(m.opts.ReconnectWait, opts))
	if err != nil {
		return nil, &Error{Server: s.name, Op: op(), Err: err}
	}
	m.refreshStale(toolList)
	res, err := c.CallTool(ctx, tool, args, opts)
	if err != nil {
		if errors.Is(err, jsonrpc.ErrClosed) && m.ctx.Err() != nil {
			// Close ended the connection, not the server.
			err = fmt.Errorf("%w while the call was in flight", ErrShutdown)
		}
		return nil, &Error{Server: s.name, Op: op(), Err: err}
	}
	return res, nil
}

// callWait is how long a call may wait for its server.
func callWait(wait time.Duration, opts *mcp.CallOptions) time.Duration {
	if opts != nil && opts.Timeout > 0 && opts.Timeout < wait {
		return opts.Timeout
	}
	return wait
}

// Client returns the named server's live client for what the manager does
// not wrap (prompts, resources, completion), starting and waiting for the
// server as CallTool does. After a reconnect it is a different client:
// ask again rather than keeping it.
func (m *Manager) Client(ctx context.Context, name string) (*mcp.Client, error) {
	s := m.byName[name]
	if s == nil {
		return nil, &Error{Server: name, Op: "get client", Err: ErrUnknownServer}
	}
	c, err := s.ready(ctx, m.opts.ReconnectWait)
	if err != nil {
		return nil, &Error{Server: name, Op: "get client", Err: err}
	}
	return c, nil
}

// Connect starts the named server if it is not running (a lazy server, a
// server before Start, or one whose breaker is open, which it resets) and
// waits until it is connected or its next attempt failed, or ctx ends.
// Supervision goes on either way.
func (m *Manager) Connect(ctx context.Context, name string) error {
	s := m.byName[name]
	if s == nil {
		return &Error{Server: name, Op: "connect", Err: ErrUnknownServer}
	}
	if err := s.usable(); err != nil {
		return &Error{Server: name, Op: "connect", Err: err}
	}
	s.mu.Lock()
	connects, failures := s.connects, s.failures
	connected := s.state == StateConnected
	s.mu.Unlock()
	if connected {
		return nil
	}
	if _, err := s.start(true); err != nil {
		return &Error{Server: name, Op: "connect", Err: err}
	}
	return m.awaitAttempt(ctx, s, "connect", connects, failures, true)
}

// awaitAttempt waits until an attempt of s after the counts connects and
// failures has ended, the breaker opened or the server stopped; with
// anyConnected, also until the server is connected at all.
func (m *Manager) awaitAttempt(ctx context.Context, s *server, op string, connects, failures int, anyConnected bool) error {
	for {
		s.mu.Lock()
		st, err, ch := s.state, s.err, s.changed
		connected := s.connects > connects || anyConnected && st == StateConnected
		done := connected || s.failures > failures || st == StateBreakerOpen || st == StateStopped
		s.mu.Unlock()
		if done {
			if connected {
				return nil
			}
			if st == StateStopped {
				err = ErrShutdown
			}
			return &Error{Server: s.name, Op: op, Err: err}
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return &Error{Server: s.name, Op: op, Err: ctx.Err()}
		case <-m.ctx.Done():
			return &Error{Server: s.name, Op: op, Err: ErrShutdown}
		}
	}
}

// Reconnect ends the named server's connection and connects it again at
// once, for a person who asked (an inspector's Reconnect button): the
// ended connection is no failure for the breaker and no backoff is
// waited, so asking often never opens the breaker. A server that is not
// connected is started as Connect does. It waits as Connect does, for the
// new connection or the attempt's failure.
func (m *Manager) Reconnect(ctx context.Context, name string) error {
	s := m.byName[name]
	if s == nil {
		return &Error{Server: name, Op: "reconnect", Err: ErrUnknownServer}
	}
	s.mu.Lock()
	c := s.client
	if s.state != StateConnected || c == nil {
		s.mu.Unlock()
		return m.Connect(ctx, name)
	}
	s.restart = c
	connects, failures := s.connects, s.failures
	s.mu.Unlock()
	_ = c.Close()
	// Until the supervisor sees the end the state still says connected:
	// only a new connection counts.
	return m.awaitAttempt(ctx, s, "reconnect", connects, failures, false)
}

// usable says why a server can never be started, or nil.
func (s *server) usable() error {
	if s.untrusted != nil {
		return s.untrusted
	}
	if s.invalid != nil {
		return fmt.Errorf("%w: %w", ErrInvalidConfig, s.invalid)
	}
	if s.cfg != nil && !s.cfg.Enabled {
		return ErrDisabled
	}
	return nil
}

// ready returns the server's live client, starting an idle or lazy
// server and waiting while it (re)connects, at most wait or until ctx
// ends. It fails at once when waiting cannot help: disabled, invalid,
// breaker open, manager closed.
func (s *server) ready(ctx context.Context, wait time.Duration) (*mcp.Client, error) {
	if err := s.usable(); err != nil {
		return nil, err
	}
	var timeout <-chan time.Time
	for {
		if s.m.ctx.Err() != nil {
			return nil, ErrShutdown
		}
		s.mu.Lock()
		st, c, lastErr, ch, running := s.state, s.client, s.err, s.changed, s.running
		s.mu.Unlock()
		switch {
		case st == StateConnected && c != nil:
			select {
			case <-c.Done(): // ended; the supervisor is about to notice
			default:
				return c, nil
			}
		case st == StateBreakerOpen:
			return nil, lastErr // a *BreakerError
		case st == StateStopped:
			return nil, ErrShutdown
		case !running && (st == StateIdle || st == StateLazy):
			if _, err := s.start(false); err != nil {
				return nil, err
			}
			continue
		}
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-ch:
		case <-s.m.ctx.Done():
			return nil, ErrShutdown
		case <-ctx.Done():
			return nil, withLast(fmt.Errorf("waiting for the server to connect: %w", ctx.Err()), lastErr)
		case <-timeout:
			return nil, withLast(fmt.Errorf("%w: not connected within %s", ErrNotReady, wait), lastErr)
		}
	}
}

// withLast adds the server's last failure to err.
func withLast(err, last error) error {
	if last == nil {
		return err
	}
	return fmt.Errorf("%w (last failure: %w)", err, last)
}

// waitFirstAttempts waits, at most wait or until ctx ends, for servers
// still on their first attempt, and reports whether there were any.
func (m *Manager) waitFirstAttempts(ctx context.Context, wait time.Duration) bool {
	pending := m.settling()
	if len(pending) == 0 {
		return false
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	for _, ch := range pending {
		select {
		case <-ch:
		case <-ctx.Done():
			return true
		case <-t.C:
			return true
		case <-m.ctx.Done():
			return true
		}
	}
	return true
}
