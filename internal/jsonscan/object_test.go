package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Object accepts what encoding/json accepts as one object, and yields the
// members encoding/json sees, in order, with their raw keys and values.
func FuzzObject(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a\"b":1,"c":{"d":[1,2]}, "e" : "f" }`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var keys, values [][]byte
		got := Object(b, func(k, v []byte) bool {
			keys, values = append(keys, k), append(values, v)
			return true
		})
		trimmed := bytes.TrimSpace(b)
		want := json.Valid(b) && len(trimmed) > 0 && trimmed[0] == '{'
		if got != want {
			t.Fatalf("Object(%q) = %v, want %v", b, got, want)
		}
		if !got {
			return
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for i, k := range keys {
			var key string
			if err := json.Unmarshal(append(append([]byte{'"'}, k...), '"'), &key); err != nil {
				t.Fatalf("key %q: %v", k, err)
			}
			if _, ok := m[key]; !ok || !json.Valid(values[i]) || cap(values[i]) != len(values[i]) {
				t.Fatalf("member %q = %q of %q", key, values[i], b)
			}
		}
		// Stopping early is reported.
		if len(keys) > 0 && Object(b, func(_, _ []byte) bool { return false }) {
			t.Fatalf("Object(%q) ignored a member's refusal", b)
		}
	})
}

// ObjectLeaving with the values it leaves valid is Object; a document it
// accepts is valid JSON exactly when the values it left are.
func FuzzObjectLeaving(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":1,"k":{"x":"\q"},"b":2}`))
	f.Add([]byte(`{"k":"a\"b","k":[1,}`))
	f.Add([]byte(`{"k":tru}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		leftValid := true
		got := ObjectLeaving(b, "k", func(k, v []byte, left bool) bool {
			if left != (string(k) == "k") || cap(v) != len(v) {
				t.Fatalf("%q: member %q left %v", b, k, left)
			}
			if left {
				leftValid = leftValid && Valid(v)
			}
			return true
		})
		trimmed := bytes.TrimSpace(b)
		want := json.Valid(b) && len(trimmed) > 0 && trimmed[0] == '{'
		if got && leftValid != want || !got && want {
			t.Fatalf("ObjectLeaving(%q) = %v, values left valid %v; encoding/json: %v", b, got, leftValid, want)
		}
	})
}
