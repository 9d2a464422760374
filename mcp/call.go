package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/latecheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// call sends one request and decodes its result into out (when non-nil).
// Every error names the method; a JSON-RPC error stays reachable with
// errors.As(err, **jsonrpc.Error). A method the server did not advertise
// is not sent (ErrUnsupported).
func (c *Client) call(ctx context.Context, method string, params any, opts *jsonrpc.CallOptions, out any) error {
	if err := c.offered(method); err != nil {
		return err
	}
	if opts == nil {
		opts = requestOptions(ctx)
	}
	var raw json.RawMessage
	var err error
	if c.modern != nil {
		if raw, err = c.callModern(ctx, method, params, opts); err != nil {
			return err
		}
	} else if raw, err = c.conn.Call(ctx, method, params, opts); err != nil {
		return requestError(method, err)
	}
	if lp, ok := params.(*latecheck.Params); ok && lp.Unchecked {
		if done, err := decodeUnchecked(raw, out); done {
			return err
		} else if err != nil {
			// Not JSON: refused, or the engine's guess of where the
			// result ends was wrong, and the codec finds it.
			if raw, err = lp.Recheck(); err != nil {
				return requestError(method, err)
			}
		}
	}
	if !isJSONObject(raw) {
		return fmt.Errorf("mcp: %s: the result is %s, not a JSON object", method, jsonKind(raw))
	}
	if out == nil {
		return nil
	}
	if err := decodeResult(raw, out, c.resultsChecked); err != nil {
		return resultDecodeError(method, err)
	}
	return nil
}

// callModern is call's exchange in the modern era: _meta on the request,
// the serverInfo of the result taken, and input_required answered for the
// methods that may ask for input. Its errors name the method.
func (c *Client) callModern(ctx context.Context, method string, params any, opts *jsonrpc.CallOptions) (json.RawMessage, error) {
	if slices.Contains(inputMethods, method) {
		return c.callWithInput(ctx, method, params, opts)
	}
	withMeta, err := c.modern.withMetaFor(params)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s: adding _meta: %w", method, err)
	}
	raw, err := c.conn.Call(ctx, method, withMeta, opts)
	if err != nil {
		if hErr := headerMismatch(method, err); hErr != nil {
			return nil, hErr
		}
		return nil, requestError(method, err)
	}
	c.modern.observe(raw)
	if err := unaskedTask(method, raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// ExtensionTasks is the 2026-07-28 revision's tasks extension. This
// client does not declare it, so a server must not answer it with a task.
const ExtensionTasks = "io.modelcontextprotocol/tasks"

// unaskedTask fails a modern result with resultType "task": the tasks
// extension's handle, which a server may send only to a client that
// declared the extension. Decoding it as the method's result would yield
// an empty one. A result without the word costs a scan.
func unaskedTask(method string, raw json.RawMessage) error {
	if !bytes.Contains(raw, []byte(`"task"`)) {
		return nil
	}
	var r struct {
		ResultType string `json:"resultType"`
	}
	if json.Unmarshal(raw, &r) != nil || r.ResultType != "task" {
		return nil
	}
	return fmt.Errorf("mcp: %s: the server answered with a task (resultType \"task\"), which this client did not ask for: it does not declare the %s extension", method, ExtensionTasks)
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

// encodedCursorParams is cursorParams encoded (nil for none).
func encodedCursorParams(cursor string) jsonenc.Encoded {
	if cursor == "" {
		return nil
	}
	b := append(make([]byte, 0, len(cursor)+14), `{"cursor":`...)
	return append(jsonenc.AppendString(b, cursor), '}')
}

// maxListPages bounds a listing, so a server that invents a fresh cursor
// forever cannot keep the client busy forever.
const maxListPages = 10000

// listAll fetches page after page until the server stops sending a
// nextCursor. A cursor seen before would start an endless loop, so it ends
// the listing with an error instead.
func listAll[T any](ctx context.Context, method string, page func(ctx context.Context, cursor string) ([]T, string, error)) ([]T, error) {
	var all []T
	var seen map[string]struct{} // made on a second page
	cursor := ""
	for range maxListPages {
		items, next, err := page(ctx, cursor)
		if err != nil {
			return nil, err
		}
		if next == "" {
			if all == nil {
				// One page, the usual case: its slice is the listing,
				// not copied into another of the same size.
				return items, nil
			}
			return append(all, items...), nil
		}
		all = append(all, items...)
		if _, dup := seen[next]; dup {
			return nil, fmt.Errorf("mcp: %s: the server sent cursor %q a second time; stopping the listing, which would never end", method, clip(next))
		}
		if seen == nil {
			seen = make(map[string]struct{})
		}
		seen[next] = struct{}{}
		cursor = next
	}
	return nil, fmt.Errorf("mcp: %s: stopped after %d pages; the server keeps sending a nextCursor", method, maxListPages)
}
