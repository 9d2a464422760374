package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mcpwire/mcpwire/internal/peerschema"
)

// ErrNoValidAnswer matches the error of ElicitationDefaults when the
// form's defaults are no answer its requestedSchema accepts (a required
// property without a default, a default outside its enum or range). The
// error says why; a headless client declines (ElicitDecline) and reports
// it.
var ErrNoValidAnswer = errors.New("mcp: elicitation: the defaults are no valid answer")

// FormDefaults returns the "default" value of every property of a
// form-mode elicitation's requestedSchema, keyed by property name: what
// a client SHOULD pre-fill a form with (SEP-1034). Properties without a
// default are left out, and nothing is validated: a person completes the
// form. To answer with the defaults alone, use ElicitationDefaults. A
// schema that is not a JSON object with an object-valued "properties"
// member is an error that says so.
func FormDefaults(requestedSchema json.RawMessage) (map[string]any, error) {
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

// ElicitationDefaults is the answer a headless client can give a
// form-mode elicitation: the defaults of its requestedSchema (see
// FormDefaults), checked against that schema. When they are no valid
// answer, the error wraps ErrNoValidAnswer and says what is wrong, and the
// client should decline. A schema that cannot be compiled (an external
// $ref, an unknown dialect) is an error too: nothing can be checked
// against it.
func ElicitationDefaults(requestedSchema json.RawMessage) (map[string]any, error) {
	defaults, err := FormDefaults(requestedSchema)
	if err != nil || len(bytes.TrimSpace(requestedSchema)) == 0 {
		return defaults, err
	}
	sch, err := peerschema.Compile(requestedSchema, elicitationSchemaLocation)
	if err != nil {
		return nil, fmt.Errorf("mcp: elicitation requestedSchema cannot be compiled: %w", err)
	}
	raw, err := json.Marshal(defaults)
	if err != nil {
		return nil, fmt.Errorf("mcp: elicitation: encoding the defaults: %w", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("mcp: elicitation: reading the defaults: %w", err)
	}
	if err := sch.Validate(inst); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrNoValidAnswer, validationDetail(err))
	}
	return defaults, nil
}

// elicitationSchemaLocation is where a requestedSchema pretends to live
// (see schemaLocation).
const elicitationSchemaLocation = "https://mcpwire.invalid/requested-schema.json"
