package mcp

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
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

// encodedTheLongWay is what CallTool sent before the params came with
// room for the token: the arguments encoded on their own, then copied in.
func encodedTheLongWay(name string, args any) ([]byte, error) {
	p := callToolParams{Name: name}
	if args != nil {
		raw, err := encodeArguments(args)
		if err != nil {
			return nil, err
		}
		p.Arguments = raw
	}
	return p.encoded(), nil
}

// FuzzEncodeCallWithRoom: the params made in one buffer, after the room,
// are byte for byte those encodeArguments and encoded make, and refused
// when they refuse; raw arguments and a map built from the same bytes.
func FuzzEncodeCallWithRoom(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a": [1, {"b":null}]}`, `null`, `[1]`, `{"a":"x\u2028y"}`, `{"a":1e400}`, `{`, ""} {
		f.Add("echo", []byte(s))
	}
	f.Add("a \"quoted\"\nname", []byte(`{}`))
	f.Fuzz(func(t *testing.T, name string, b []byte) {
		var asMap map[string]any
		json.Unmarshal(b, &asMap)
		for _, args := range []any{json.RawMessage(b), asMap, nil} {
			want, wantErr := encodedTheLongWay(name, args)
			room, err := encodeCallWithRoom(name, args)
			if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("%q, %#v: error %v, want %v", name, args, err, wantErr)
			}
			if err != nil {
				continue
			}
			if len(room) < jsonenc.TokenRoom || !bytes.Equal(room[jsonenc.TokenRoom:], want) {
				t.Fatalf("%q, %#v: %q, want %d spare bytes then %q", name, args, room, jsonenc.TokenRoom, want)
			}
		}
	})
}
