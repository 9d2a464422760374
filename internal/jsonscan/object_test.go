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

// ObjectLast's guess, when it is one valid value, makes the whole input
// valid, with that value as the member's last and only value: encoding/json
// finds the same. A valid object whose member "k" comes last, once, is
// always guessed right.
func FuzzObjectLast(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"a":1,"k":{"x":"}"}}`))
	f.Add([]byte(`{"a":1,"k":{"x":1},"b":{}}`))
	f.Add([]byte(`{"k":1,"k":2}`))
	f.Add([]byte(` {"a":[1,2], "k" : "v" } `))
	f.Fuzz(func(t *testing.T, b []byte) {
		var seen []string
		v, ok := ObjectLast(b, "k", func(k, v []byte) bool {
			if string(k) == "k" || cap(v) != len(v) || !Valid(v) {
				t.Fatalf("%q: member %q, %q", b, k, v)
			}
			seen = append(seen, string(k))
			return true
		})
		var obj map[string]json.RawMessage
		valid := json.Unmarshal(b, &obj) == nil && json.Valid(b)
		if ok && Valid(v) {
			if !valid {
				t.Fatalf("ObjectLast(%q) guessed %q, valid, but encoding/json refuses the input", b, v)
			}
			if want := obj["k"]; !bytes.Equal(v, want) {
				t.Fatalf("ObjectLast(%q) guessed %q; encoding/json's k is %q", b, v, want)
			}
		}
		if valid && lastMemberIsK(b) && !(ok && Valid(v)) {
			t.Fatalf("ObjectLast(%q) = %q, %v: k comes last, once, and was not guessed", b, v, ok)
		}
	})
}

// lastMemberIsK reports whether the valid object b's members, read in
// order, end with its one member named exactly "k" (no escapes).
func lastMemberIsK(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	if len(keys) == 0 || keys[len(keys)-1] != "k" || bytes.Contains(b, []byte(`\`)) {
		return false
	}
	for _, k := range keys[:len(keys)-1] {
		if k == "k" {
			return false
		}
	}
	return true
}
