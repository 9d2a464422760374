package mcp

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonscan"
)

// A tools/list page of 1,000 tools decoded by encoding/json is checked
// twice and walked by reflection, every schema skipped byte by byte and
// then copied: most of a listing's time (bench/NOTES.md). decodeToolsList
// reads the page in one pass: names and descriptions as strings, each
// schema checked and kept as the bytes it arrived as (a slice of the
// result, which the caller owns, not a copy), and the members it has no
// quick way for (annotations, icons, _meta, ...) handed to encoding/json
// one by one. It gives up (ok false, nothing assigned) on what it cannot
// decode exactly as encoding/json would: a repeated member, a member name
// that differs from a field's only in case or has escapes, a null or
// non-string where a string goes. The caller then falls back to
// encoding/json for the whole page. A fuzz test holds the two to the same
// result.

// toolsListFields and toolFields are the member names encoding/json would
// match, case-insensitively, to a field of ListToolsResult and Tool.
var (
	toolsListFields = []string{"tools", "nextCursor", "_meta", "ttlMs", "cacheScope"}
	toolFields      = []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations", "execution", "icons", "_meta"}
)

// decodeToolsList decodes raw into res if it can do so exactly; ok
// reports whether it did. checked says raw is known to be valid JSON (see
// seam.CheckedResults): values it keeps raw or skips are then skipped, not
// checked again.
func decodeToolsList(raw []byte, res *ListToolsResult, checked bool) (ok bool) {
	return scanner{b: raw, checked: checked, owned: checked}.toolsList(res)
}

// decodeToolsListOwned is decodeToolsList of a page not known to be valid
// JSON (every value it keeps or skips is checked) that is nonetheless the
// caller's own: its plain strings are made over it, as a checked page's.
func decodeToolsListOwned(raw []byte, res *ListToolsResult) (ok bool) {
	return scanner{b: raw, owned: true}.toolsList(res)
}

// toolsList is decodeToolsList's work, on a scanner of its own (a value,
// so that it stays on the stack).
func (d scanner) toolsList(res *ListToolsResult) (ok bool) {
	var out ListToolsResult
	ok = d.fieldMembers(toolsListFields, func(key string) (ok bool) {
		switch key {
		case "tools":
			out.Tools, ok = d.tools()
		case "nextCursor":
			out.NextCursor, ok = d.stringValue()
		case "_meta":
			ok = d.memberInto(&out.Meta)
		case "ttlMs":
			ok = d.memberInto(&out.TTLMs)
		case "cacheScope":
			ok = d.memberInto(&out.CacheScope)
		default: // not a field: checked and skipped
			_, ok = d.validValue()
		}
		return ok
	})
	if !ok || !d.atEnd() {
		return false
	}
	*res = out
	return true
}

// tools reads the array of tools.
func (d *scanner) tools() ([]Tool, bool) {
	if !d.consume('[') {
		return nil, false
	}
	tools := []Tool{}
	if d.consume(']') {
		return tools, true
	}
	var strs stringArena
	for {
		// Decoded in place: a Tool of its own would go to the heap, as
		// its fields are handed to encoding/json.
		tools = append(tools, Tool{})
		start := d.i
		if !d.tool(&tools[len(tools)-1], &strs, len(tools)-1) {
			return nil, false
		}
		if len(tools) == 1 {
			// Room for as many tools as the first one's size says the
			// page holds, rather than a dozen doublings of the slice.
			tools = slices.Grow(tools, min((len(d.b)-d.i)/max(d.i-start, 16), 1<<16))
		}
		if d.consume(',') {
			continue
		}
		if !d.consume(']') {
			return nil, false
		}
		strs.assign(d.b, tools)
		return tools, true
	}
}

// tool reads one tool object into t, tools[index]; its plain strings are
// noted in strs, to be set when the page is read.
func (d *scanner) tool(t *Tool, strs *stringArena, index int) bool {
	return d.fieldMembers(toolFields, func(key string) (ok bool) {
		switch key {
		case "name":
			t.Name, ok = d.toolText(strs, index, toolName)
		case "title":
			t.Title, ok = d.toolText(strs, index, toolTitle)
		case "description":
			t.Description, ok = d.toolText(strs, index, toolDescription)
		case "inputSchema":
			t.InputSchema, ok = d.rawValue()
		case "outputSchema":
			t.OutputSchema, ok = d.rawValue()
		case "annotations":
			ok = d.memberInto(&t.Annotations)
		case "execution":
			ok = d.memberInto(&t.Execution)
		case "icons":
			ok = d.memberInto(&t.Icons)
		case "_meta":
			ok = d.memberInto(&t.Meta)
		default:
			_, ok = d.validValue()
		}
		return ok
	})
}

// fieldMembers reads an object whose members' names are matched by
// matchField against fields; member reads each value, given its field (""
// for a member that is not one).
func (d *scanner) fieldMembers(fields []string, member func(field string) bool) bool {
	seen := 0 // a bit per entry of fields
	return d.memberKeys(func(key []byte) bool {
		field, ok := matchField(fields, key, &seen)
		return ok && member(field)
	})
}

// matchField matches a member's name to fields. A name in fields is
// returned once (seen keeps a bit per field); a second time, or a name
// that matches a field only when case is ignored, fails: encoding/json
// would merge or match it in ways this decoder does not copy. Any other
// name comes back as "" for the caller to skip.
func matchField(fields []string, key []byte, seen *int) (string, bool) {
	for i, f := range fields {
		if string(key) == f {
			if *seen&(1<<i) != 0 {
				return "", false
			}
			*seen |= 1 << i
			return f, true
		}
	}
	for _, f := range fields {
		if strings.EqualFold(string(key), f) {
			return "", false
		}
	}
	return "", true
}

// plainKey reads a string without escapes, a member's name, as its bytes
// in the input: a comparison with it allocates nothing.
func (d *scanner) plainKey() ([]byte, bool) {
	if !d.consume('"') {
		return nil, false
	}
	start := d.i
	var ascii bool
	d.i, ascii = jsonscan.PlainRunASCII(d.b, d.i)
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, false // an escape, a control character or the end
	}
	key := d.b[start:d.i]
	d.i++
	return key, ascii || utf8.Valid(key)
}

// validValue checks the value that comes next and returns its bytes. In
// input known to be valid it only finds the value's end: on a 1,000-tool
// page, checking every schema again was a sixth of a listing's CPU.
func (d *scanner) validValue() ([]byte, bool) {
	d.space()
	start := d.i
	var end int
	var ok bool
	if d.checked {
		end = jsonscan.SkipValue(d.b, start)
		ok = end > start // no value at all: the input was not valid after all
	} else {
		end, ok = jsonscan.ValidValue(d.b, start)
	}
	if !ok {
		return nil, false
	}
	d.i = end
	return d.b[start:end], true
}

// rawValue is a json.RawMessage member: its bytes as sent, sliced out of
// the result. A null is left to encoding/json.
func (d *scanner) rawValue() (json.RawMessage, bool) {
	v, ok := d.validValue()
	if !ok || string(v) == "null" {
		return nil, false
	}
	return v, true
}

// stringValue reads a string member; one with escapes or invalid UTF-8
// is decoded by encoding/json (which replaces invalid bytes).
func (d *scanner) stringValue() (string, bool) {
	v, ok := d.validValue()
	if !ok || v[0] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	return s, json.Unmarshal(v, &s) == nil
}

// memberInto decodes the value that comes next into field with
// encoding/json, as it would inside the whole document.
func (d *scanner) memberInto(field any) bool {
	v, ok := d.validValue()
	return ok && json.Unmarshal(v, field) == nil
}
