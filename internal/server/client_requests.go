package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Call sends a request to the client and waits for its answer, returning the
// raw result; a JSON-RPC error answer is returned as a *jsonrpc.Error. When
// ctx ends first the server sends notifications/cancelled and returns
// ctx's error. Called with a tool handler's ctx, the request travels with
// that tool call (over HTTP: on the POST's reply stream).
//
// Called with the ctx of a modern-era (2026-07-28) request, nothing is
// sent: the call becomes an input request of the request's
// input_required result (MRTR), and returns ErrInputRequired until the
// client's retry carries the answer (see ErrInputRequired). A capability
// the request's _meta did not declare makes the request fail with -32021.
func (ss *Session) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if mc := modernFrom(ctx); mc != nil {
		return mc.call(method, params)
	}
	id := jsonrpc.Int64ID(ss.nextID.Add(1))
	req, err := jsonrpc.NewRequest(id, method, params)
	if err != nil {
		return nil, err
	}
	ch := make(chan *jsonrpc.Response, 1)
	ss.mu.Lock()
	ss.pending[id] = ch
	ss.mu.Unlock()
	forget := func() {
		ss.mu.Lock()
		delete(ss.pending, id)
		ss.mu.Unlock()
	}
	if err := ss.out.send(ctx, req, relatedID(ctx)); err != nil {
		forget()
		return nil, fmt.Errorf("mcptest: sending %s to the client: %w", method, err)
	}
	select {
	case resp := <-ch:
		if resp.Error != nil {
			return nil, resp.Error
		}
		return resp.Result, nil
	case <-ctx.Done():
		forget()
		rel := relatedID(ctx)
		ss.goWork(func() {
			_ = ss.notifyRelated(ss.ctx, jsonrpc.MethodCancelled, map[string]any{"requestId": id, "reason": "the server gave up waiting"}, rel)
		})
		return nil, fmt.Errorf("mcptest: %s to the client: %w", method, ctx.Err())
	case <-ss.ctx.Done():
		forget()
		return nil, fmt.Errorf("mcptest: %s to the client: %w: session ended", method, jsonrpc.ErrClosed)
	case <-ss.inputEnded:
		forget()
		return nil, fmt.Errorf("mcptest: %s to the client: %w: the client closed its input", method, jsonrpc.ErrClosed)
	}
}

// Ping sends ping to the client and waits for its empty result.
func (ss *Session) Ping(ctx context.Context) error {
	_, err := ss.Call(ctx, "ping", nil)
	return err
}

// ListRoots sends roots/list and returns the raw result ({roots: [...]}).
func (ss *Session) ListRoots(ctx context.Context) (json.RawMessage, error) {
	return ss.Call(ctx, "roots/list", nil)
}

// CreateMessage sends sampling/createMessage with params as given and
// returns the raw result.
func (ss *Session) CreateMessage(ctx context.Context, params any) (json.RawMessage, error) {
	return ss.Call(ctx, "sampling/createMessage", params)
}

// Elicit sends elicitation/create with params as given and returns the raw
// result ({action, content?}).
func (ss *Session) Elicit(ctx context.Context, params any) (json.RawMessage, error) {
	return ss.Call(ctx, "elicitation/create", params)
}

// Notify sends a notification to the client (related to the tool call of
// ctx, if any).
func (ss *Session) Notify(ctx context.Context, method string, params any) error {
	return ss.notifyRelated(ctx, method, params, relatedID(ctx))
}

func (ss *Session) notifyRelated(ctx context.Context, method string, params any, related jsonrpc.ID) error {
	n, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		return err
	}
	return ss.out.send(ctx, n, related)
}

// logLevels are RFC 5424's severities as MCP names them, least severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// Log sends notifications/message {level, logger: "mcptest", data} unless
// the client asked (logging/setLevel, or in the modern era the request's
// _meta level, without which nothing is sent) for a more severe minimum
// level. It reports whether the message was sent.
func (ss *Session) Log(ctx context.Context, level string, data any) (bool, error) {
	rank := slices.Index(logLevels, level)
	if rank < 0 {
		return false, fmt.Errorf("mcptest: log level %q is not one of %v", level, logLevels)
	}
	minLevel, wanted := ss.minLogLevel(ctx)
	if min := slices.Index(logLevels, minLevel); !wanted || min > rank {
		return false, nil
	}
	params := map[string]any{"level": level, "logger": "mcptest", "data": data}
	if err := ss.Notify(ctx, "notifications/message", params); err != nil {
		return false, err
	}
	return true, nil
}
