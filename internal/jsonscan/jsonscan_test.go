package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// A value followed by more input ends where encoding/json says it does,
// and so does a member inside an object.
func FuzzSkipValue(f *testing.F) {
	for _, s := range []string{`"a\"b"`, `{"k":[1,{"x":"}"}]}`, `-1.5e3`, `true`, `null`, `[]`, `"\\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		v = bytes.TrimSpace(v)
		if len(v) == 0 || !json.Valid(v) {
			return
		}
		in := append(append([]byte{}, v...), " ,1"...)
		if end := SkipValue(in, 0); end != len(v) {
			t.Fatalf("SkipValue(%q) = %d, want %d", in, end, len(v))
		}
		obj := append(append([]byte(`{ "k" :`), v...), '}')
		i := SkipSpace(obj, 1)
		i = SkipString(obj, i)
		i = SkipSpace(obj, SkipSpace(obj, i)+1)
		if end := SkipValue(obj, i); !bytes.Equal(obj[i:end], v) {
			t.Fatalf("member of %q: got %q, want %q", obj, obj[i:end], v)
		}
	})
}

// Invalid input stops at the end instead of panicking.
func TestSkipsStopAtTheEnd(t *testing.T) {
	for _, s := range []string{`"abc`, `{"a":[1,`, `"\`, `[[[`} {
		if end := SkipValue([]byte(s), 0); end != len(s) {
			t.Errorf("SkipValue(%q) = %d, want %d", s, end, len(s))
		}
	}
	if end := SkipValue(nil, 0); end != 0 {
		t.Errorf("SkipValue(nil) = %d", end)
	}
}

// SkipQuoted ends a valid value where SkipValue does, and on any input
// stays within it.
func FuzzSkipQuoted(f *testing.F) {
	for _, s := range []string{`"a\"b"`, `{"k":[1,{"x":"}"}]}`, `-1.5e3`, `"\\"`, `"\\\"`, `{"a":"\`, `[`, `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		for i := range min(len(v), 4) + 1 {
			if end := SkipQuoted(v, i); end < i || end > len(v) {
				t.Fatalf("SkipQuoted(%q, %d) = %d", v, i, end)
			}
		}
		v = bytes.TrimSpace(v)
		if len(v) == 0 || !json.Valid(v) {
			return
		}
		in := append(append([]byte{}, v...), " ,1"...)
		if end := SkipQuoted(in, 0); end != len(v) {
			t.Fatalf("SkipQuoted(%q) = %d, want %d", in, end, len(v))
		}
	})
}
