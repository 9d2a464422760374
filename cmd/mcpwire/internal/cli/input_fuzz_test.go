package cli

import (
	"encoding/json"
	"testing"
)

// A server's requestedSchema is peer input: listing its fields and
// checking an answer against it never panic, whatever it holds.
func FuzzFormSchema(f *testing.F) {
	f.Add([]byte(`{"type":"object","properties":{"name":{"type":"string","default":"x"}},"required":["name"]}`), []byte(`{"name":1}`))
	f.Add([]byte(`{"properties":{"a":{"$ref":"https://evil.example/s.json"}}}`), []byte(`{"a":"b"}`))
	f.Add([]byte(`{"properties":[1,2]}`), []byte(`{}`))
	f.Add([]byte(`true`), []byte(`{"x":null}`))
	f.Fuzz(func(t *testing.T, schema, answer []byte) {
		_ = formFields(schema)
		var content map[string]any
		if json.Unmarshal(answer, &content) != nil {
			return
		}
		_ = checkContent(schema, content)
	})
}
