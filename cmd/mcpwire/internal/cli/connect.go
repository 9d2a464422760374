package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// ClientName is how mcpwire introduces itself in the MCP handshake.
const ClientName = "mcpwire"

// Connect opens an MCP session with t. Every failure, whatever its cause,
// comes back as a *ConnectError carrying the end of the server's stderr.
// With t.Verbose, the server's log messages and the engine's warnings are
// printed to io.ErrOut. The caller closes the client.
func Connect(ctx context.Context, io *IOStreams, t *Target) (*mcp.Client, error) {
	opts := &mcp.ClientOptions{
		ClientInfo:      mcp.Implementation{Name: ClientName, Version: Version()},
		Timeout:         t.Timeout,
		ProtocolVersion: t.Protocol,
		// Set explicitly: with Timeout set, the library would give tool
		// calls that deadline too (a host's one "timeout" per server).
		ToolTimeout:    mcp.DefaultToolTimeout,
		ToolMaxTimeout: mcp.DefaultToolMaxTimeout,
		// A server that floods must not go unnoticed: what is dropped
		// is said on stderr.
		OnNotificationsDropped: droppedNotice(io, t.Desc),
		Extensions:             io.clientExtensions,
	}
	if t.input != nil {
		t.input.apply(opts, io)
	}
	if t.clientHook != nil {
		t.clientHook(opts)
	}
	if t.Verbose || t.LogLevel != "" {
		opts.OnLogMessage = func(_ context.Context, m mcp.LoggingMessage) {
			fmt.Fprintln(io.ErrOut, logText(m))
		}
	}
	if t.Verbose {
		next := opts.ErrorHook // mcpwire inspect's, which the page reports
		opts.ErrorHook = func(err error) {
			fmt.Fprintf(io.ErrOut, "mcpwire: warning: %s\n", Sanitize(oneLine(io.Redact(err.Error()))))
			if next != nil {
				next(err)
			}
		}
	}
	if t.Auth != nil && io.IsTerminal {
		// Sign in (if needed) before connecting: a person at the browser
		// must not be cut off by the handshake's request timeout.
		if err := t.Auth.Prepare(ctx); err != nil {
			return nil, &ConnectError{Target: t.Desc, Err: err}
		}
	}
	noise := &stdoutNoise{}
	opts.ErrorHook = noise.hook(opts.ErrorHook)
	c, err := mcp.Connect(ctx, t.Transport, opts)
	if err != nil {
		hint := t.hintFor(err)
		if hint == "" {
			hint = pinnedProtocolHint(err, t.Protocol)
		}
		if hint == "" {
			hint = noise.hint()
		}
		return nil, &ConnectError{Target: t.Desc, Err: shortenNotMCP(err), StderrTail: t.stderr.String(), Hint: hint}
	}
	level := t.LogLevel
	if level == "" && t.Verbose {
		level = mcp.LevelDebug // --verbose is for finding out what happens
	}
	askLogLevel(ctx, io, c, level)
	return c, nil
}

// LogLine formats a server's log message: "server log [level] logger: data",
// with a JSON string's quotes removed.
func LogLine(m mcp.LoggingMessage) string {
	data := strings.TrimSpace(string(m.Data))
	var s string
	if jsonString(m.Data, &s) {
		data = s
	}
	if m.Logger != "" {
		return fmt.Sprintf("server log [%s] %s: %s", m.Level, m.Logger, data)
	}
	return fmt.Sprintf("server log [%s] %s", m.Level, data)
}

// logText is LogLine as printed: sanitized, its lines after the first
// indented, so that a log message cannot end a line and start one that
// passes for mcpwire's own ("mcpwire: ...").
func logText(m mcp.LoggingMessage) string {
	return sanitizeIndented(LogLine(m), "  ")
}

// Explain adds to a failed request's error what the user can do about it:
// for a timeout, the limit that was hit and the flag that sets it. op names
// the request ("calling tool \"slow\"").
func (t *Target) Explain(op string, err error) error {
	if errors.Is(err, jsonrpc.ErrTimeout) && t.Timeout > 0 {
		return fmt.Errorf("%s: %w (raise --timeout, or set it to 0 to wait forever)", op, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// ExplainTool is Explain for a tool call, whose deadline --tool-timeout
// sets.
func (t *Target) ExplainTool(op string, err error) error {
	if errors.Is(err, jsonrpc.ErrTimeout) && t.ToolTimeout != mcp.NoTimeout {
		return fmt.Errorf("%s: %w (the tool sent no progress in time: raise --tool-timeout, or set it to 0 to wait forever)", op, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}

// askLogLevel asks the server for log messages of level and up, when a
// level is set and the server offers logging; a refusal is a warning.
func askLogLevel(ctx context.Context, io *IOStreams, c *mcp.Client, level mcp.LoggingLevel) {
	if level == "" {
		return
	}
	if c.ServerCapabilities().Logging == nil {
		fmt.Fprintf(io.ErrOut, "mcpwire: warning: the server does not offer logging; --log-level %s has no effect\n", level)
		return
	}
	if err := c.SetLogLevel(ctx, level); err != nil {
		fmt.Fprintf(io.ErrOut, "mcpwire: warning: asking the server for %s logs: %s\n", level, Sanitize(oneLine(io.Redact(err.Error()))))
	}
}
