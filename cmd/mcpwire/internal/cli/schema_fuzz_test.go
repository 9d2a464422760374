package cli

import (
	"encoding/json"
	"errors"
	"testing"
)

// A server's inputSchema and outputSchema are peer input: reading them
// for a signature, the detail view and --arg conversion must not panic
// whatever they hold.
func FuzzSchema(f *testing.F) {
	f.Add([]byte(sumSchema), "a", "1e3")
	f.Add([]byte(`{"properties":{"x":{"type":["integer","null"],"enum":[1,null],"items":{"type":7}}}}`), "x", "null")
	f.Add([]byte(`{"properties":[]}`), "", "")
	f.Add([]byte(`{"properties":{"a":{}},"required":["a","b"],"additionalProperties":{"type":"string"}}`), "c", "x")
	f.Add([]byte(`{"properties":{"a":{"type":"array","items":{"type":"array"}}}}`), "a", "[[1]]")
	f.Fuzz(func(t *testing.T, schema []byte, name, value string) {
		raw := json.RawMessage(schema)
		_ = signature("t", raw, raw)
		s, ok := parseObjectSchema(raw)
		if !ok {
			return
		}
		for _, n := range s.Names {
			_ = s.Props[n].typeName()
		}
		if out, err := convertArg(name, value, s.Props[name]); err == nil && !json.Valid(out) {
			t.Errorf("convertArg(%q, %q) = %q, not JSON", name, value, out)
		}
		// The name check before a call: an unknown or missing name is a
		// usage error, never a panic.
		args := &toolArgs{pairs: []argPair{{name, value}}, given: true}
		if err := args.checkNames(s); err != nil {
			var usage *UsageError
			if !errors.As(err, &usage) {
				t.Errorf("checkNames: %v is not a usage error", err)
			}
		}
	})
}
