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

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// x-mcp-header (2026-07-28): a tool's input schema may mark a field with
// "x-mcp-header": "Name", and a tools/call over Streamable HTTP then
// mirrors the field's value into the header Mcp-Param-Name. A tool whose
// annotations break the rules is left out of tools/list (the spec's
// "reject"), with the reason sent to the ErrorHook, so that one malformed
// tool does not cost the others. The client does this in the modern era on
// every transport, so that a tool list does not depend on how the server
// is reached; the transport sends the headers only where they exist.

const xMCPHeader = "x-mcp-header"

// headerField is one x-mcp-header annotation: the header's name part and
// the chain of properties keys from the schema root to the field.
type headerField struct {
	name string
	path []string
}

// maxSafeInteger is the largest integer a JavaScript number holds exactly,
// the bound the spec sets on integer header values.
const maxSafeInteger = 1<<53 - 1

// toolHeaderFields returns the x-mcp-header annotations of an input
// schema, or an error saying why they make the tool invalid: a name that
// is empty, not an HTTP token, or used twice (regardless of case); an
// annotation on a field that is not a string, integer or boolean; one that
// is not reachable from the root through properties keys alone (inside
// items, anyOf, $defs, $ref targets and the like) or sits on the root.
// A schema without the word costs a scan.
func toolHeaderFields(schema json.RawMessage) ([]headerField, error) {
	if !bytes.Contains(schema, []byte(xMCPHeader)) {
		return nil, nil
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, nil // not JSON: the tool's own problem, not a header's
	}
	w := headerWalk{seen: map[string]string{}}
	if err := w.walk(root, nil, true); err != nil {
		return nil, err
	}
	return w.fields, nil
}

type headerWalk struct {
	fields []headerField
	seen   map[string]string // lower-case name -> the field that has it
}

// dataKeywords hold instance data, not schemas: an x-mcp-header member in
// them is a value, not an annotation.
var dataKeywords = map[string]bool{"default": true, "const": true, "enum": true, "examples": true}

// walk visits node; reachable says whether node is reached from the root
// through properties keys alone, path is that chain.
func (w *headerWalk) walk(node any, path []string, reachable bool) error {
	switch n := node.(type) {
	case []any:
		for _, v := range n {
			if err := w.walk(v, path, false); err != nil {
				return err
			}
		}
	case map[string]any:
		if raw, ok := n[xMCPHeader]; ok {
			if err := w.annotation(n, raw, path, reachable); err != nil {
				return err
			}
		}
		for k, v := range n {
			switch {
			case dataKeywords[k]:
			case k == "properties" && reachable:
				props, ok := v.(map[string]any)
				if !ok {
					continue
				}
				for name, child := range props {
					if err := w.walk(child, append(path[:len(path):len(path)], name), true); err != nil {
						return err
					}
				}
			default:
				if err := w.walk(v, path, false); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// annotation checks one x-mcp-header member of the schema node n.
func (w *headerWalk) annotation(n map[string]any, raw any, path []string, reachable bool) error {
	where := "the schema root"
	if len(path) > 0 {
		where = "property " + strconv.Quote(clip(strings.Join(path, ".")))
	}
	name, ok := raw.(string)
	switch {
	case !ok:
		return fmt.Errorf("%s on %s is not a string", xMCPHeader, where)
	case name == "":
		return fmt.Errorf("%s on %s is empty", xMCPHeader, where)
	case !isHeaderToken(name):
		return fmt.Errorf("%s %q on %s is not an HTTP token (letters, digits and !#$%%&'*+-.^_`|~ only)", xMCPHeader, clip(name), where)
	case !reachable || len(path) == 0:
		return fmt.Errorf("%s %q is on %s, which is not reached from the root through properties alone", xMCPHeader, name, where)
	}
	if typ, _ := n["type"].(string); typ != "string" && typ != "integer" && typ != "boolean" {
		return fmt.Errorf("%s %q is on %s, whose type is %s, not string, integer or boolean", xMCPHeader, name, where, describeType(n["type"]))
	}
	lower := strings.ToLower(name)
	if other, dup := w.seen[lower]; dup {
		return fmt.Errorf("%s %q on %s is also on %s (names must differ regardless of case)", xMCPHeader, name, where, other)
	}
	w.seen[lower] = where
	w.fields = append(w.fields, headerField{name: name, path: path})
	return nil
}

func describeType(t any) string {
	if t == nil {
		return "not given"
	}
	b, _ := json.Marshal(t)
	return clip(string(b))
}

// isHeaderToken reports whether s is an RFC 9110 token (1*tchar).
func isHeaderToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}

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

// ErrInvalidToolHeaders is wrapped by the error the ErrorHook receives
// when a tool is left out of tools/list in the modern era because its
// input schema's x-mcp-header annotations break the rules.
var ErrInvalidToolHeaders = errors.New("invalid x-mcp-header annotations")

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
		c.report(fmt.Errorf("mcp: %s %q: listing the tools after the server refused its headers: %w", MethodToolsCall, clip(tool), err))
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
