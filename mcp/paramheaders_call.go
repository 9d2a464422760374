package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/paramheader"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The call side of x-mcp-header: the fields learned at tools/list, and the
// Mcp-Param values of a call's arguments (see paramheaders.go for the
// rules).

// maxSafeInteger is the largest integer a JavaScript number holds exactly,
// the bound the spec sets on integer header values.
const maxSafeInteger = 1<<53 - 1

// maxParamHeaderValue and maxParamHeadersTotal bound what one call mirrors
// into Mcp-Param headers: one value, and all of them together (values
// before the transport's base64 form, which adds a third). Servers and
// proxies commonly refuse request headers beyond 8 to 16 KiB in all, and a
// header is meant for routing, not for data.
const (
	maxParamHeaderValue  = 1 << 10
	maxParamHeadersTotal = 8 << 10
)

// ErrParamHeader is wrapped by the error of a CallTool that was not sent
// because an argument cannot be mirrored into its Mcp-Param header: an
// integer beyond ±(2^53−1), a value longer than 1 KiB, or values longer
// than 8 KiB together.
var ErrParamHeader = errors.New("argument cannot be sent as its Mcp-Param header")

// paramHeaders returns the Mcp-Param-* headers of a call's arguments: the
// value at each field's path in its string form. A field that is absent or
// null has no header, and neither has one whose value is not a string,
// integer or boolean (the server will refuse the arguments anyway). An
// integer beyond ±(2^53−1) or a value past the size bounds is an error:
// the header would be wrong or missing, so the call is not sent.
func paramHeaders(fields []headerField, args json.RawMessage) ([]paramheader.Header, error) {
	if len(fields) == 0 || len(args) == 0 {
		return nil, nil
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(args, &top) != nil {
		return nil, nil
	}
	out := make([]paramheader.Header, 0, len(fields))
	total := 0
	for _, f := range fields {
		v, ok, err := valueAt(top, f.path)
		if err == nil && len(v) > maxParamHeaderValue {
			err = fmt.Errorf("its value is %d bytes long, more than the %d a header carries", len(v), maxParamHeaderValue)
		}
		if total += len(v); err == nil && total > maxParamHeadersTotal {
			err = fmt.Errorf("the Mcp-Param values come to more than %d bytes together", maxParamHeadersTotal)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: argument %q (Mcp-Param-%s): %v", ErrParamHeader, clip(strings.Join(f.path, ".")), f.name, err)
		}
		if ok {
			out = append(out, paramheader.Header{Name: f.name, Value: v})
		}
	}
	return out, nil
}

// valueAt returns the string form of the value at path under obj.
func valueAt(obj map[string]json.RawMessage, path []string) (string, bool, error) {
	raw, ok := obj[path[0]]
	for _, key := range path[1:] {
		var next map[string]json.RawMessage
		if !ok || json.Unmarshal(raw, &next) != nil {
			return "", false, nil
		}
		raw, ok = next[key]
	}
	if !ok {
		return "", false, nil
	}
	return headerString(bytes.TrimSpace(raw))
}

// headerString converts a JSON string, boolean or integer to the text the
// header carries: a string as is, true or false, an integer in decimal
// (1.0 and 1e2 are integers too). Another value has no header; an integer
// beyond ±(2^53−1), which a JavaScript server would read as another
// number, is an error.
func headerString(raw []byte) (string, bool, error) {
	if len(raw) == 0 {
		return "", false, nil
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false, nil
		}
		return s, true, nil
	case 't', 'f':
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return "", false, nil
		}
		return strconv.FormatBool(b), true, nil
	case 'n', '{', '[':
		return "", false, nil
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return "", false, nil
	}
	i, ierr := strconv.ParseInt(string(raw), 10, 64)
	switch {
	case ierr == nil && i >= -maxSafeInteger && i <= maxSafeInteger:
		return strconv.FormatInt(i, 10), true, nil
	case ierr == nil || errors.Is(ierr, strconv.ErrRange) || math.IsInf(f, 0) || (f == math.Trunc(f) && math.Abs(f) > maxSafeInteger):
		return "", false, fmt.Errorf("the integer %s is beyond ±(2^53−1), which a header value may not carry", clip(string(raw)))
	case f != math.Trunc(f):
		return "", false, nil // not an integer: the server refuses the arguments
	}
	return strconv.FormatInt(int64(f), 10), true, nil
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
// of tool with args, in the modern era, when the tool has any; an error
// (wrapping ErrParamHeader) when an argument cannot be mirrored.
func (c *Client) withParamHeaders(ctx context.Context, tool string, args json.RawMessage) (context.Context, error) {
	if c.modern == nil {
		return ctx, nil
	}
	h, err := paramHeaders(c.tools.Load().headerFields(tool), args)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s %q: %w", MethodToolsCall, clip(tool), err)
	}
	if len(h) > 0 {
		return paramheader.With(ctx, h), nil
	}
	return ctx, nil
}

// relistForHeaders lists the tools again after a -32020 for a call of
// tool, and reports whether the call should be sent again: the listing
// worked and the tool's x-mcp-header fields changed.
func (c *Client) relistForHeaders(ctx context.Context, tool string) bool {
	before := c.tools.Load().headerFields(tool)
	if _, err := c.ListTools(ctx); err != nil {
		c.report(wrapf(err, "%s %q: listing the tools after the server refused its headers", MethodToolsCall, clip(tool)))
		return false
	}
	return !slices.EqualFunc(before, c.tools.Load().headerFields(tool), func(a, b headerField) bool {
		return a.name == b.name && slices.Equal(a.path, b.path)
	})
}

// isHeaderMismatch reports whether err is the modern era's -32020.
func isHeaderMismatch(err error) bool {
	var rpcErr *jsonrpc.Error
	return errors.As(err, &rpcErr) && rpcErr.Code == CodeHeaderMismatch
}
