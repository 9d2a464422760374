package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// headerField is one tool input field mirrored into Mcp-Param-{header}.
type headerField struct {
	header string
	path   []string // chain of properties keys from the schema root
	kind   string   // "string", "integer" or "boolean"
}

// headerFields lists the x-mcp-header annotations of a tool's input
// schema. Annotations are valid only on primitive (string, integer,
// boolean) properties reachable through properties keys alone, with
// header names that are HTTP tokens, unique regardless of case; a schema
// that breaks a rule is an error (and mirrors nothing).
func headerFields(schema json.RawMessage) ([]headerField, error) {
	var out []headerField
	seen := map[string]bool{}
	var walk func(node json.RawMessage, path []string) error
	walk = func(node json.RawMessage, path []string) error {
		var obj map[string]json.RawMessage
		if json.Unmarshal(node, &obj) != nil {
			return nil
		}
		if raw, ok := obj["x-mcp-header"]; ok {
			var name, kind string
			if err := json.Unmarshal(raw, &name); err != nil || !isToken(name) {
				return fmt.Errorf("x-mcp-header %s at %v is not an HTTP token", raw, path)
			}
			_ = json.Unmarshal(obj["type"], &kind)
			if kind != "string" && kind != "integer" && kind != "boolean" {
				return fmt.Errorf("x-mcp-header %q is on a %q property, not a string, integer or boolean", name, kind)
			}
			if len(path) == 0 {
				return fmt.Errorf("x-mcp-header %q is on the schema root", name)
			}
			if seen[strings.ToLower(name)] {
				return fmt.Errorf("x-mcp-header %q appears twice", name)
			}
			seen[strings.ToLower(name)] = true
			out = append(out, headerField{header: name, path: path, kind: kind})
		}
		var props map[string]json.RawMessage
		if json.Unmarshal(obj["properties"], &props) != nil {
			return nil
		}
		for key, child := range props {
			if err := walk(child, append(path[:len(path):len(path)], key)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(schema, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// isToken reports whether s is an RFC 9110 token (1*tchar).
func isToken(s string) bool {
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

// argumentAt returns the string form of the argument at path, as a client
// puts it in a header; present is false when the value is absent or null.
func argumentAt(args json.RawMessage, path []string) (value string, present bool, err error) {
	cur := args
	for _, key := range path {
		var obj map[string]json.RawMessage
		if json.Unmarshal(cur, &obj) != nil {
			return "", false, nil
		}
		v, ok := obj[key]
		if !ok {
			return "", false, nil
		}
		cur = v
	}
	cur = bytes.TrimSpace(cur)
	if len(cur) == 0 || string(cur) == "null" {
		return "", false, nil
	}
	var s string
	if json.Unmarshal(cur, &s) == nil {
		return s, true, nil
	}
	var b bool
	if json.Unmarshal(cur, &b) == nil {
		return strconv.FormatBool(b), true, nil
	}
	var n json.Number
	if json.Unmarshal(cur, &n) == nil {
		return n.String(), true, nil
	}
	return "", false, fmt.Errorf("not a string, integer or boolean")
}

// sameParamValue compares a header value with the body's; integers are
// compared as numbers (42 and 42.0 are the same).
func sameParamValue(header, body, kind string) bool {
	if header == body {
		return true
	}
	if kind != "integer" {
		return false
	}
	a, okA := new(big.Rat).SetString(header)
	b, okB := new(big.Rat).SetString(body)
	return okA && okB && a.Cmp(b) == 0
}

const (
	base64Prefix = "=?base64?"
	base64Suffix = "?="
)

// decodeHeaderValue reads an Mcp-Name or Mcp-Param-* value: plain visible
// ASCII (with inner spaces and tabs), or "=?base64?…?=" around the base64
// of UTF-8 text. Anything else is an error saying what is wrong.
func decodeHeaderValue(v string) (string, error) {
	if strings.HasPrefix(v, base64Prefix) && strings.HasSuffix(v, base64Suffix) && len(v) >= len(base64Prefix)+len(base64Suffix) {
		b, err := base64.StdEncoding.DecodeString(v[len(base64Prefix) : len(v)-len(base64Suffix)])
		if err != nil {
			return "", fmt.Errorf("the =?base64?…?= value is not base64: %v", err)
		}
		if !utf8.Valid(b) {
			return "", fmt.Errorf("the =?base64?…?= value is not UTF-8")
		}
		return string(b), nil
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
			return "", fmt.Errorf("byte %#x at %d is not allowed (use =?base64?…?=)", c, i)
		}
	}
	if v != strings.TrimSpace(v) {
		return "", fmt.Errorf("leading or trailing whitespace must be sent as =?base64?…?=")
	}
	return v, nil
}
