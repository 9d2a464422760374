package peerschema

import (
	"encoding/json"
	"strings"
	"testing"
)

// CheckForm reads the schema as Compile does: without one, or with one
// that does not compile, nothing is refused; every failed keyword is
// worded without the value given.
func TestCheckForm(t *testing.T) {
	for _, tc := range []struct {
		schema, content, want string
	}{
		{``, `{"a":1}`, ""},
		{`{"$ref":"https://example.com/x.json"}`, `{"a":1}`, ""},
		{`{"type":"object","properties":{"s":{"type":"string","minLength":3}}}`, `{"s":"secret-no"}`, ""},
		{`{"type":"object","properties":{"s":{"type":"string","minLength":30}}}`, `{"s":"secret-no"}`, `"s" must be at least 30 characters long`},
		{`{"type":"object","properties":{"s":{"type":"string","maxLength":2}}}`, `{"s":"secret-no"}`, `"s" must be at most 2 characters long`},
		{`{"type":"object","properties":{"n":{"type":"number","maximum":0.5}}}`, `{"n":7}`, `"n" must be at most 0.5`},
		{`{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":1}}}`, `{"n":1}`, `"n" must be more than 1`},
		{`{"type":"object","properties":{"b":{"type":"boolean"}},"additionalProperties":false}`, `{"x":true}`, `"x" is not a field of the form`},
		// Formats are annotations to JSON Schema, but a form holds its
		// answers to them, however they were given.
		{`{"type":"object","properties":{"e":{"type":"string","format":"email"}}}`, `{"e":"secret-no"}`, `"e" is not an email address`},
		{`{"type":"object","properties":{"e":{"type":"string","format":"email"}}}`, `{"e":"ada@example.com"}`, ""},
		{`{"type":"object","properties":{"w":{"type":"string","format":"date-time"}}}`, `{"w":"secret-no"}`, `"w" is not a date-time`},
		{`{"type":"object","properties":{"d":{"type":"string","format":"date"}}}`, `{"d":"2026-12-07"}`, ""},
		{`{"type":"object","properties":{"u":{"type":"string","format":"uri"},"n":{"type":"integer","maximum":1}}}`, `{"u":"secret-no","n":5}`, `"n" must be at most 1; "u" is not a URI`},
		{`{"type":"object","properties":{"h":{"type":"string","format":"hostname"}}}`, `{"h":"secret no"}`, ""},
	} {
		var content map[string]any
		if err := json.Unmarshal([]byte(tc.content), &content); err != nil {
			t.Fatal(err)
		}
		err := CheckForm(json.RawMessage(tc.schema), content)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) || strings.Contains(got, "secret-no") {
			t.Errorf("schema %s, content %s: %q, want %q", tc.schema, tc.content, got, tc.want)
		}
	}
}
