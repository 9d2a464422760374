package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/paramheader"
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

// toolHeaderFields returns the x-mcp-header annotations of an input
// schema, or an error saying why they make the tool invalid: a name that
// is empty, not an HTTP token, or used twice (regardless of case); an
// annotation on a field that is not a string, integer or boolean; one that
// is not reachable from the root through properties keys alone (inside
// items, anyOf, $defs, $ref targets and the like) or sits on the root.
// A schema without the word costs a scan. A valid annotation on a secret
// field (writeOnly, or format password) is not returned: secret holds
// where it is, for a note, and the value is never mirrored.
func toolHeaderFields(schema json.RawMessage) (fields []headerField, secret []string, err error) {
	if !bytes.Contains(schema, []byte(xMCPHeader)) {
		return nil, nil, nil
	}
	var root any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, nil, nil // not JSON: the tool's own problem, not a header's
	}
	w := headerWalk{seen: map[string]string{}}
	if err := w.walk(root, nil, true); err != nil {
		return nil, nil, err
	}
	return w.fields, w.secret, nil
}

type headerWalk struct {
	fields []headerField
	secret []string          // the secret fields with an annotation
	seen   map[string]string // lower-case name -> the field that has it
}

// isSecretField reports a schema that marks its value secret: writeOnly
// (JSON Schema: sent, never shown back) or format password. Such a value
// never goes into a header, which proxies and servers log far more freely
// than a body.
func isSecretField(n map[string]any) bool {
	return n["writeOnly"] == true || n["format"] == "password"
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
	case !paramheader.ValidName(name):
		return fmt.Errorf("%s %q on %s is not an HTTP token (letters, digits and !#$%%&'*+-.^_`|~ only)", xMCPHeader, clip(name), where)
	case !reachable || len(path) == 0:
		return fmt.Errorf("%s %q is on %s, which is not reached from the root through properties alone", xMCPHeader, name, where)
	}
	if typ, _ := n["type"].(string); typ != "string" && typ != "integer" && typ != "boolean" {
		return fmt.Errorf("%s %q is on %s, whose type is %s, not string, integer or boolean", xMCPHeader, name, where, describeType(n["type"]))
	}
	if isSecretField(n) {
		w.secret = append(w.secret, fmt.Sprintf("%s %q on %s", xMCPHeader, name, where))
		return nil
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

// ErrInvalidToolHeaders is wrapped by the error the ErrorHook receives
// when a tool is left out of tools/list in the modern era because its
// input schema's x-mcp-header annotations break the rules.
var ErrInvalidToolHeaders = errors.New("invalid x-mcp-header annotations")
