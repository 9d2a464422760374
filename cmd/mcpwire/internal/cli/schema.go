package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// objectSchema is the part of a tool's inputSchema (a JSON Schema object)
// the CLI uses: the properties in the order the server wrote them, and
// which are required.
type objectSchema struct {
	Names    []string
	Props    map[string]propSchema
	Required []string
	// Open is set when the schema admits properties it does not name
	// (additionalProperties true or a schema, or patternProperties).
	// Left out, it is taken as closed: a name the schema does not know
	// is far more often a typo than an argument the tool reads.
	Open bool
}

// propSchema is one property's schema, as far as the CLI reads it.
type propSchema struct {
	Type        json.RawMessage   `json:"type"` // a string or an array of strings
	Enum        []json.RawMessage `json:"enum"`
	Default     json.RawMessage   `json:"default"`
	Description string            `json:"description"`
	Items       *propSchema       `json:"items"`
}

// types is the property's "type" as a list; nil when it gives none.
func (p propSchema) types() []string {
	var one string
	if json.Unmarshal(p.Type, &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(p.Type, &many)
	return many
}

// typeName is the property's type for people: "number", "string|null",
// "string[]", "any".
func (p propSchema) typeName() string {
	ts := p.types()
	if len(ts) == 0 {
		if len(p.Enum) > 0 {
			return "enum"
		}
		return "any"
	}
	for i, t := range ts {
		if t == "array" && p.Items != nil && len(p.Items.types()) == 1 {
			ts[i] = p.Items.types()[0] + "[]"
		}
	}
	return strings.Join(ts, "|")
}

// parseObjectSchema reads raw; ok is false when it is not an object schema
// with properties (no schema, or one the CLI cannot read), and the caller
// falls back to guessing.
func parseObjectSchema(raw json.RawMessage) (*objectSchema, bool) {
	var s struct {
		Properties           json.RawMessage `json:"properties"`
		Required             []string        `json:"required"`
		AdditionalProperties json.RawMessage `json:"additionalProperties"`
		PatternProperties    json.RawMessage `json:"patternProperties"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil || len(s.Properties) == 0 {
		return nil, false
	}
	out := &objectSchema{Props: map[string]propSchema{}, Required: s.Required}
	extra := bytes.TrimSpace(s.AdditionalProperties)
	out.Open = (len(extra) > 0 && !bytes.Equal(extra, []byte("false"))) || len(s.PatternProperties) > 0
	if json.Unmarshal(s.Properties, &out.Props) != nil {
		return nil, false
	}
	out.Names = objectKeys(s.Properties)
	return out, true
}

// objectKeys lists a JSON object's keys in the order they appear.
func objectKeys(raw json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return keys
		}
		k, _ := t.(string)
		keys = append(keys, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return keys
		}
	}
	return keys
}

func (s *objectSchema) required(name string) bool { return slices.Contains(s.Required, name) }

// signature is "name(a: number, b?: string) -> {sum}": the parameters in
// the schema's order (optional ones marked "?"), and the output schema's
// top-level properties when the tool declares one.
func signature(name string, input, output json.RawMessage) string {
	var params []string
	if s, ok := parseObjectSchema(input); ok {
		for _, n := range s.Names {
			opt := "?"
			if s.required(n) {
				opt = ""
			}
			params = append(params, n+opt+": "+s.Props[n].typeName())
		}
	}
	sig := name + "(" + strings.Join(params, ", ") + ")"
	if len(output) > 0 {
		if s, ok := parseObjectSchema(output); ok {
			sig += " -> {" + strings.Join(s.Names, ", ") + "}"
		} else {
			sig += " -> {…}"
		}
	}
	return sig
}

// convertArg turns the --arg value v for the parameter name into JSON as
// its schema asks: a string stays a string; numbers, integers, booleans,
// arrays, objects and null are parsed; an enum is checked. Without a
// type it keeps the guess (JSON when v parses, else a string). Errors
// name the argument and the expected type, never the value.
func convertArg(name, v string, p propSchema) (json.RawMessage, error) {
	ts := p.types()
	var out json.RawMessage
	switch {
	case len(ts) == 0:
		out = ArgValue(v)
	case slices.Contains(ts, "string"):
		out, _ = json.Marshal(v)
		// A string parameter that also allows other types takes v as
		// that type when it parses so, e.g. "null" for string|null.
		for _, t := range ts {
			if t != "string" {
				if raw, ok := parseAs(t, v); ok {
					out = raw
				}
			}
		}
	default:
		for _, t := range ts {
			if raw, ok := parseAs(t, v); ok {
				out = raw
				break
			}
		}
		if out == nil {
			return nil, Usagef("--arg %s: want %s", name, article(p.typeName()))
		}
	}
	if len(p.Enum) > 0 {
		var want []string
		for _, e := range p.Enum {
			if jsonEqual(e, out) {
				return out, nil
			}
			want = append(want, string(e))
		}
		return nil, Usagef("--arg %s: want one of %s", name, strings.Join(want, ", "))
	}
	return out, nil
}

// parseAs parses v as the JSON Schema type t.
func parseAs(t, v string) (json.RawMessage, bool) {
	v = strings.TrimSpace(v)
	switch t {
	case "integer":
		if _, err := strconv.ParseInt(v, 10, 64); err == nil {
			return json.RawMessage(v), true
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil && f == float64(int64(f)) && json.Valid([]byte(v)) {
			return json.RawMessage(v), true
		}
	case "number":
		if _, err := strconv.ParseFloat(v, 64); err == nil && json.Valid([]byte(v)) {
			return json.RawMessage(v), true
		}
	case "boolean":
		if v == "true" || v == "false" {
			return json.RawMessage(v), true
		}
	case "null":
		if v == "null" {
			return json.RawMessage(v), true
		}
	case "array", "object":
		open := map[string]byte{"array": '[', "object": '{'}[t]
		if len(v) > 0 && v[0] == open && json.Valid([]byte(v)) {
			return json.RawMessage(v), true
		}
	}
	return nil, false
}

func article(t string) string {
	switch {
	case strings.Contains(t, "|"):
		return "a value of type " + t
	case strings.IndexAny(t, "aeiou") == 0:
		return "an " + t
	}
	return "a " + t
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}
