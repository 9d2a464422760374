package inspect

import (
	"bytes"
	"encoding/json"
)

// redactJSON applies redact to every string of the JSON value b, object
// keys included, so that what a server sends back reaches the page with
// the secrets the command knows masked, as the CLI masks them in a
// result it prints (a stdio server that echoes its --env token, say).
// b comes back as it is when redact changes nothing, or b is not JSON.
func redactJSON(b []byte, redact func(string) string) []byte {
	if redact == nil {
		return b
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // numbers stay as they were written
	var v any
	if dec.Decode(&v) != nil {
		return b
	}
	changed := false
	v = redactValue(v, redact, &changed)
	if !changed {
		return b
	}
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// redactValue is redactJSON's walk over a decoded value.
func redactValue(v any, redact func(string) string, changed *bool) any {
	switch x := v.(type) {
	case string:
		r := redact(x)
		if r != x {
			*changed = true
		}
		return r
	case []any:
		for i := range x {
			x[i] = redactValue(x[i], redact, changed)
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[redactValue(k, redact, changed).(string)] = redactValue(e, redact, changed)
		}
		return out
	}
	return v
}
