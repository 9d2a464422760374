package mcp

import (
	"encoding/json"
	"fmt"
)

// ElicitationDefaults returns the "default" value of every property of a
// form-mode elicitation's requestedSchema, keyed by property name. A client
// SHOULD pre-fill a form with them (SEP-1034); a headless client that
// accepts an elicitation can answer with exactly these. Properties without
// a default are left out. A schema that is not a JSON object with an
// object-valued "properties" member is an error that says so.
func ElicitationDefaults(requestedSchema json.RawMessage) (map[string]any, error) {
	out := map[string]any{}
	if len(requestedSchema) == 0 {
		return out, nil
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(requestedSchema, &schema); err != nil {
		return nil, fmt.Errorf("mcp: elicitation requestedSchema: %w", err)
	}
	for name, raw := range schema.Properties {
		var prop struct {
			Default json.RawMessage `json:"default"`
		}
		if err := json.Unmarshal(raw, &prop); err != nil {
			return nil, fmt.Errorf("mcp: elicitation requestedSchema property %q: %w", name, err)
		}
		if len(prop.Default) == 0 || string(prop.Default) == "null" {
			continue
		}
		var v any
		if err := json.Unmarshal(prop.Default, &v); err != nil {
			return nil, fmt.Errorf("mcp: elicitation requestedSchema property %q default: %w", name, err)
		}
		out[name] = v
	}
	return out, nil
}
