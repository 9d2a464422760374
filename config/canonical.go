package config

import (
	"bytes"
	"encoding/json"
)

// canonicalJSON re-encodes the valid JSON value v with object keys sorted,
// no insignificant white space, no HTML escaping, and numbers exactly as
// written. Two definitions that differ only in layout, comments or key
// order get the same bytes, and so the same cache key. When an object
// repeats a key, the last one counts, as in JSON.parse.
func canonicalJSON(v []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(x); err != nil { // maps encode with sorted keys
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
