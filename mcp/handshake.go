package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// InitializeResult is the server's answer to initialize.
type InitializeResult struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ServerCapabilities `json:"capabilities"`
	ServerInfo      Implementation     `json:"serverInfo"`
	Instructions    string             `json:"instructions,omitempty"`
	Meta            map[string]any     `json:"_meta,omitempty"`
}

type initializeParams struct {
	ProtocolVersion string             `json:"protocolVersion"`
	Capabilities    ClientCapabilities `json:"capabilities"`
	ClientInfo      Implementation     `json:"clientInfo"`
}

// ProtocolVersionError means client and server found no protocol revision
// they both speak. Either the server answered initialize with a revision
// the client does not support (Server is set), or it refused the offered
// one with -32602 or -32022 and listed what it supports (Supported is
// set, Err is the *jsonrpc.Error), or it refused the revision that
// ClientOptions.ProtocolVersion pinned (Err is its answer: a JSON-RPC
// error or an HTTP 4xx; Supported is set if it listed its revisions).
// A pin skips the negotiation that would have found another revision.
type ProtocolVersionError struct {
	// Offered is the revision the client offered.
	Offered string
	// Server is the revision the server answered with, "" if it refused.
	Server string
	// Supported is the server's list from the error data, if it gave one.
	Supported []string
	// Err is the server's error, if it refused.
	Err error

	// modern: the refusal answered server/discover (-32022).
	modern bool
}

func (e *ProtocolVersionError) Error() string {
	if e.Server != "" {
		return fmt.Sprintf("mcp: initialize: the server chose protocol version %q, which this client does not support (it supports %s)",
			clip(e.Server), strings.Join(supportedVersions, ", "))
	}
	if len(e.Supported) == 0 {
		// A refused pin; Err names the method already.
		return fmt.Sprintf("mcp: the server refused protocol version %q, which the client was set to speak: %v", e.Offered, e.Err)
	}
	quoted := make([]string, len(e.Supported))
	for i, v := range e.Supported {
		quoted[i] = fmt.Sprintf("%q", clip(v))
	}
	method, ours := MethodInitialize, supportedVersions
	if e.modern {
		method, ours = MethodServerDiscover, modernVersions
	}
	return fmt.Sprintf("mcp: %s: the server refused protocol version %q; it supports %s (this client supports %s)",
		method, e.Offered, strings.Join(quoted, ", "), strings.Join(ours, ", "))
}

func (e *ProtocolVersionError) Unwrap() error { return e.Err }

// handshake runs initialize → check the version → tell the stream →
// notifications/initialized.
func (c *Client) handshake(ctx context.Context, info Implementation, offered string) error {
	raw, err := c.initialize(ctx, info, offered)
	if err != nil {
		return err
	}
	return c.finishHandshake(ctx, raw, offered)
}

// initialize sends initialize offering offered and returns its result.
func (c *Client) initialize(ctx context.Context, info Implementation, offered string) (json.RawMessage, error) {
	params := initializeParams{
		ProtocolVersion: offered,
		Capabilities:    *c.caps,
		ClientInfo:      info,
	}
	var encoded any = &params
	if b, ok := appendInitializeParams(nil, &params); ok {
		encoded = json.RawMessage(b)
	}
	raw, err := c.conn.Call(ctx, MethodInitialize, encoded, nil)
	if err != nil {
		if vErr := versionRefusal(err, offered); vErr != nil {
			return nil, vErr
		}
		return nil, requestError(MethodInitialize, err)
	}
	return raw, nil
}

// finishHandshake checks the initialize result raw, tells the stream the
// version, holds its listener if nothing would use it, and sends
// notifications/initialized.
func (c *Client) finishHandshake(ctx context.Context, raw json.RawMessage, offered string) error {
	if !isJSONObject(raw) {
		return fmt.Errorf("mcp: initialize: the result is %s, not a JSON object", jsonKind(raw))
	}
	var res InitializeResult
	if !decodeInitializeResult(raw, &res) {
		if err := json.Unmarshal(raw, &res); err != nil {
			return fmt.Errorf("mcp: initialize: decoding the result: %w", err)
		}
	}
	if res.ProtocolVersion == "" {
		return errors.New("mcp: initialize: the result has no protocolVersion")
	}
	if !IsSupportedProtocolVersion(res.ProtocolVersion) {
		return &ProtocolVersionError{Offered: offered, Server: res.ProtocolVersion}
	}
	c.init = res
	// The stream's wire format may depend on the version (the HTTP
	// header), and the notification below is already sent under it.
	c.setStreamVersion(res.ProtocolVersion)
	c.holdListener()
	if err := c.conn.Notify(ctx, NotificationInitialized, nil); err != nil {
		return fmt.Errorf("mcp: sending %s: %w", NotificationInitialized, err)
	}
	return nil
}

// versionRefusal recognises a -32602 answer to initialize whose data lists
// the server's supported versions.
func versionRefusal(err error, offered string) *ProtocolVersionError {
	supported := refusedVersions(err, jsonrpc.CodeInvalidParams)
	if supported == nil {
		return nil
	}
	var rpcErr *jsonrpc.Error
	errors.As(err, &rpcErr)
	return &ProtocolVersionError{Offered: offered, Supported: supported, Err: rpcErr}
}

// refusedVersions returns data.supported of a JSON-RPC error with code,
// nil for any other error.
func refusedVersions(err error, code int64) []string {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != code || len(rpcErr.Data) == 0 {
		return nil
	}
	var data struct {
		Supported []string `json:"supported"`
	}
	if json.Unmarshal(rpcErr.Data, &data) != nil || len(data.Supported) == 0 {
		return nil
	}
	return data.Supported
}

// clip shortens peer-supplied text for error messages.
func clip(s string) string {
	const limit = 100
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "…"
}
