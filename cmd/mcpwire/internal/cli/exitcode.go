package cli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// Exit codes of mcpwire. This file is the one place errors become codes;
// docs/cli.md documents the same table.
const (
	// ExitOK: success.
	ExitOK = 0
	// ExitError: anything not covered below (an unexpected local failure).
	ExitError = 1
	// ExitUsage: bad command line (unknown command or flag, missing or
	// malformed argument, missing token variable), a broken config file,
	// or configured servers of a project config file not yet trusted.
	ExitUsage = 2
	// ExitConnect: the server could not be reached or started: spawn
	// failed, the child died, the HTTP endpoint was unreachable or
	// answered with an HTTP error, or the MCP handshake failed (even by
	// timing out).
	ExitConnect = 3
	// ExitToolError: the tool ran and returned a result with isError.
	ExitToolError = 4
	// ExitProtocol: the server answered with a JSON-RPC error (an unknown
	// tool, bad arguments, ...) or broke the protocol (structured content
	// that violates the tool's output schema).
	ExitProtocol = 5
	// ExitTimeout: a request got no answer within --timeout.
	ExitTimeout = 6
	// ExitInterrupted: Ctrl-C (SIGINT) or SIGTERM, as shells report 128+2.
	ExitInterrupted = 130
)

// ExitCode maps the error a command returned to mcpwire's exit code. ctx is
// the invocation's context: once it is done (Ctrl-C), the run counts as
// interrupted whatever error the interruption caused on its way out.
func ExitCode(ctx context.Context, err error) int {
	if err == nil {
		return ExitOK
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		return ExitInterrupted
	}
	var (
		usage      *UsageError
		untrusted  *UntrustedConfigError
		configErr  *ConfigError
		tool       *ToolError
		conn       *ConnectError
		signIn     *SignInError
		rpcErr     *jsonrpc.Error
		schemaErr  *mcp.OutputSchemaError
		httpErr    *transport.HTTPError
		processErr *transport.ExitError
		netErr     *net.OpError
		shapeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &usage), errors.As(err, &untrusted), errors.As(err, &configErr):
		return ExitUsage
	case errors.As(err, &tool):
		return ExitToolError
	case errors.As(err, &conn), errors.As(err, &signIn):
		// A sign-in that fails is the server (or its authorization
		// server) not letting us in, as when a command needs one.
		return ExitConnect
	case errors.Is(err, jsonrpc.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return ExitTimeout
	case errors.As(err, &rpcErr), errors.As(err, &schemaErr), answeredInHTTPError(err), errors.As(err, &shapeErr):
		// A result of the wrong shape is the server's answer too: one
		// the protocol does not allow.
		return ExitProtocol
	case errors.As(err, &httpErr), errors.As(err, &processErr), errors.Is(err, jsonrpc.ErrClosed),
		errors.As(err, &netErr), errors.Is(err, io.ErrUnexpectedEOF):
		// The connection broke after the handshake: still a connection
		// failure, not the server's answer.
		return ExitConnect
	}
	return ExitError
}

// answeredInHTTPError reports whether err is a JSON-RPC error that came
// as the body of an HTTP error status after the handshake (a server over
// Streamable HTTP answers an unknown method with 404 and the error): the
// server's answer, as the same error over stdio is, not a broken
// connection. Sign-in refusals (401, 403) stay connection failures.
func answeredInHTTPError(err error) bool {
	var httpErr *transport.HTTPError
	return errors.As(err, &httpErr) && httpErr.RPCError != nil &&
		httpErr.StatusCode != http.StatusUnauthorized && httpErr.StatusCode != http.StatusForbidden
}
