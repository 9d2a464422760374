package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// The call side of x-mcp-header: the fields learned at tools/list, and the
// Mcp-Param values of a call's arguments (see paramheaders.go for the
// rules).

// maxSafeInteger is the largest integer a JavaScript number holds exactly,
// the bound the spec sets on integer header values.
const maxSafeInteger = 1<<53 - 1

// paramHeaders returns the Mcp-Param-* headers of a call's arguments: the
// value at each field's path in its string form. A field that is absent or
// null has no header, and neither has one whose value is not a string,
// integer or boolean (the server will refuse the arguments anyway).
func paramHeaders(fields []headerField, args json.RawMessage) []transport.ParamHeader {
	if len(fields) == 0 || len(args) == 0 {
		return nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(args, &top) != nil {
		return nil
	}
	out := make([]transport.ParamHeader, 0, len(fields))
	for _, f := range fields {
		if v, ok := valueAt(top, f.path); ok {
			out = append(out, transport.ParamHeader{Name: f.name, Value: v})
		}
	}
	return out
}

// valueAt returns the string form of the value at path under obj.
func valueAt(obj map[string]json.RawMessage, path []string) (string, bool) {
	raw, ok := obj[path[0]]
	for _, key := range path[1:] {
		var next map[string]json.RawMessage
		if !ok || json.Unmarshal(raw, &next) != nil {
			return "", false
		}
		raw, ok = next[key]
	}
	if !ok {
		return "", false
	}
	return headerString(bytes.TrimSpace(raw))
}

// headerString converts a JSON string, boolean or integer to the text the
// header carries: a string as is, true or false, an integer in decimal
// (1.0 and 1e2 are integers too).
func headerString(raw []byte) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return s, true
	case 't', 'f':
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return "", false
		}
		return strconv.FormatBool(b), true
	case 'n', '{', '[':
		return "", false
	}
	if i, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return strconv.FormatInt(i, 10), true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > maxSafeInteger {
		return "", false
	}
	return strconv.FormatInt(int64(f), 10), true
}

// toolHeaders holds the x-mcp-header fields of listed tools, by tool name.
// Safe for concurrent use.
type toolHeaders struct {
	mu     sync.RWMutex
	byTool map[string][]headerField
}

// learn records the fields of one listed tool (none forgets it).
func (th *toolHeaders) learn(name string, fields []headerField) {
	th.mu.Lock()
	defer th.mu.Unlock()
	if len(fields) == 0 {
		delete(th.byTool, name)
		return
	}
	if th.byTool == nil {
		th.byTool = make(map[string][]headerField)
	}
	th.byTool[name] = fields
}

// retain forgets every tool not in tools (a complete listing).
func (th *toolHeaders) retain(tools []Tool) {
	th.mu.Lock()
	defer th.mu.Unlock()
	if len(th.byTool) == 0 {
		return
	}
	keep := make(map[string]bool, len(tools))
	for i := range tools {
		keep[tools[i].Name] = true
	}
	for name := range th.byTool {
		if !keep[name] {
			delete(th.byTool, name)
		}
	}
}

func (th *toolHeaders) get(name string) []headerField {
	th.mu.RLock()
	defer th.mu.RUnlock()
	return th.byTool[name]
}

// withParamHeaders returns ctx carrying the Mcp-Param headers of a call
// of tool with args, in the modern era, when the tool has any.
func (c *Client) withParamHeaders(ctx context.Context, tool string, args json.RawMessage) context.Context {
	if c.modern == nil {
		return ctx
	}
	if h := paramHeaders(c.headers.get(tool), args); len(h) > 0 {
		return transport.WithParamHeaders(ctx, h)
	}
	return ctx
}

// relistForHeaders lists the tools again after a -32020 for a call of
// tool, and reports whether the call should be sent again: the listing
// worked and the tool's x-mcp-header fields changed.
func (c *Client) relistForHeaders(ctx context.Context, tool string) bool {
	before := c.headers.get(tool)
	if _, err := c.ListTools(ctx); err != nil {
		c.report(wrapf(err, "%s %q: listing the tools after the server refused its headers", MethodToolsCall, clip(tool)))
		return false
	}
	return !slices.EqualFunc(before, c.headers.get(tool), func(a, b headerField) bool {
		return a.name == b.name && slices.Equal(a.path, b.path)
	})
}

// isHeaderMismatch reports whether err is the modern era's -32020.
func isHeaderMismatch(err error) bool {
	var rpcErr *jsonrpc.Error
	return errors.As(err, &rpcErr) && rpcErr.Code == CodeHeaderMismatch
}
