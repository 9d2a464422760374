package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
)

// Raw arguments reach encodeArguments from callers and, through the
// gateway, from hosts: whatever the bytes, it must agree with
// json.Compact, which it skips when the bytes hold no whitespace.
func FuzzEncodeArguments(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a": 1}`, "{\"a\":\n1}", `{"a":1}}`, `{"a":01}`, `[1]`, `null`, `{"a":"x y"}`, `{"a":"\u0000"}`, ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := encodeArguments(json.RawMessage(b))
		var want bytes.Buffer
		compactErr := json.Compact(&want, b)
		switch {
		case compactErr != nil:
			if err == nil {
				t.Fatalf("%q: accepted, but json.Compact refuses it: %v", b, compactErr)
			}
		case want.String() == "null":
			if err != nil || got != nil {
				t.Fatalf("%q: got %q, %v; want no arguments", b, got, err)
			}
		case want.Len() > 0 && want.Bytes()[0] == '{':
			if err != nil || !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("%q: got %q, %v; want %q", b, got, err, want.Bytes())
			}
		default:
			if err == nil {
				t.Fatalf("%q: accepted arguments that are not an object", b)
			}
		}
	})
}
