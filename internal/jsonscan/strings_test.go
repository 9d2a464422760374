package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// maskSecret is the f of the tests: it masks "secret" in any text.
func maskSecret(s string) string { return strings.ReplaceAll(s, "secret", "***") }

func TestMapStrings(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// Escaped any way a peer likes, the text is found; the rest
		// keeps its order, numbers and escapes.
		{`{"z":"a \u0073ecret","a":1.50,"\"secret\"":["x\n",  "secret"]}`, `{"z":"a ***","a":1.50,"\"***\"":["x\n",  "***"]}`},
		{`"s\u0065cr\u0065t\/"`, `"***/"`},
		{`{"b":2,"a":"nothing \u0041"}`, `{"b":2,"a":"nothing \u0041"}`},
		{`[]`, `[]`},
	} {
		got, changed := MapStrings([]byte(c.in), maskSecret)
		if string(got) != c.want || changed != (c.in != c.want) {
			t.Errorf("MapStrings(%s) = %s %v, want %s", c.in, got, changed, c.want)
		}
	}
	// Nothing changed: b itself, not a copy.
	in := []byte(`{"a":"b"}`)
	if got, _ := MapStrings(in, maskSecret); &got[0] != &in[0] {
		t.Error("an unchanged document was copied")
	}
}

// Input that is not JSON is no panic (what comes back means nothing).
func TestMapStringsInvalid(t *testing.T) {
	for _, s := range []string{`"secret`, `"\`, `"`, `{"a":"\x"}`, `"\u00"`} {
		MapStrings([]byte(s), maskSecret)
	}
}

// For valid JSON, MapStrings gives the value whose strings are f's
// answers: decoding its answer is decoding b and mapping every string.
func FuzzMapStrings(f *testing.F) {
	for _, s := range []string{`{"a":"secret"}`, `["s\u0065cret",1e400,"\"secret\\"]`, `{"secret":{}}`, `"x"`, `"<secret>"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, _ := MapStrings(in, maskSecret)
		if !json.Valid(in) {
			return
		}
		want, err := decodeMapped(in, maskSecret)
		if err != nil {
			return // a duplicate key that the mapping merges: not comparable
		}
		got, err := decodeMapped(out, func(s string) string { return s })
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("MapStrings(%q) = %q (%v): decodes to %#v, want %#v", in, out, err, got, want)
		}
	})
}

// decodeMapped decodes the JSON value b with f applied to every string.
func decodeMapped(b []byte, f func(string) string) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var walk func(any) (any, error)
	walk = func(v any) (any, error) {
		switch x := v.(type) {
		case string:
			return f(x), nil
		case []any:
			for i := range x {
				var err error
				if x[i], err = walk(x[i]); err != nil {
					return nil, err
				}
			}
		case map[string]any:
			m := make(map[string]any, len(x))
			for k, e := range x {
				e, err := walk(e)
				if err != nil {
					return nil, err
				}
				k = f(k)
				if _, dup := m[k]; dup {
					return nil, errDuplicate
				}
				m[k] = e
			}
			return m, nil
		}
		return v, nil
	}
	return walk(v)
}

var errDuplicate = errors.New("two keys map to one")
