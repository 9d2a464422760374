package mcp

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// call sends one request and decodes its result into out (when non-nil).
// Every error names the method; a JSON-RPC error stays reachable with
// errors.As(err, **jsonrpc.Error).
func (c *Client) call(ctx context.Context, method string, params any, opts *jsonrpc.CallOptions, out any) error {
	if opts == nil {
		opts = requestOptions(ctx)
	}
	if c.modern != nil {
		var err error
		if params, err = c.modern.withMeta(params); err != nil {
			return fmt.Errorf("mcp: %s: adding _meta: %w", method, err)
		}
	}
	raw, err := c.conn.Call(ctx, method, params, opts)
	if err != nil {
		return fmt.Errorf("mcp: %s: %w", method, err)
	}
	if c.modern != nil {
		c.modern.observe(raw)
	}
	if !isJSONObject(raw) {
		return fmt.Errorf("mcp: %s: the result is %s, not a JSON object", method, jsonKind(raw))
	}
	if out == nil {
		return nil
	}
	if err := decodeResult(raw, out); err != nil {
		return fmt.Errorf("mcp: %s: decoding the result: %w", method, err)
	}
	return nil
}

// cursorParams is the params of a list request; nil for the first page,
// so that no params member is sent at all.
func cursorParams(cursor string) any {
	if cursor == "" {
		return nil
	}
	return struct {
		Cursor string `json:"cursor"`
	}{cursor}
}

// maxListPages bounds a listing, so a server that invents a fresh cursor
// forever cannot keep the client busy forever.
const maxListPages = 10000

// listAll fetches page after page until the server stops sending a
// nextCursor. A cursor seen before would start an endless loop, so it ends
// the listing with an error instead.
func listAll[T any](ctx context.Context, method string, page func(ctx context.Context, cursor string) ([]T, string, error)) ([]T, error) {
	var all []T
	seen := make(map[string]struct{})
	cursor := ""
	for range maxListPages {
		items, next, err := page(ctx, cursor)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		if next == "" {
			return all, nil
		}
		if _, dup := seen[next]; dup {
			return nil, fmt.Errorf("mcp: %s: the server sent cursor %q a second time; stopping the listing, which would never end", method, clip(next))
		}
		seen[next] = struct{}{}
		cursor = next
	}
	return nil, fmt.Errorf("mcp: %s: stopped after %d pages; the server keeps sending a nextCursor", method, maxListPages)
}
