package inspect

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestRedactJSON(t *testing.T) {
	mask := func(s string) string { return strings.ReplaceAll(s, "s3cret-value", "***") }
	for _, c := range []struct{ in, want string }{
		{`{"a":"the s3cret-value here","n":1.50,"s3cret-value":[true,null,"s3cret-value"]}`, `{"a":"the *** here","n":1.50,"***":[true,null,"***"]}`},
		{`{"a":"\u0073\u0033cret-value"}`, `{"a":"***"}`},                // escaped as the server likes
		{`{"b":2,"a":"nothing secret"}`, `{"b":2,"a":"nothing secret"}`}, // unchanged, as sent
		{`not json s3cret-value`, `not json s3cret-value`},
		{`"s3cret-value"`, `"***"`},
	} {
		if got := string(redactJSON([]byte(c.in), mask)); got != c.want {
			t.Errorf("redactJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// Whatever a server sends, redactJSON gives valid JSON back for valid
// JSON, with no string of it holding the secret (escaped or not).
func FuzzRedactJSON(f *testing.F) {
	const secret = "s3cret-value"
	mask := func(s string) string { return strings.ReplaceAll(s, secret, "***") }
	for _, s := range []string{`{"a":"s3cret-value"}`, `["s3\u0063ret-value",1e400]`, `{"s3cret-value":{}}`, `"x"`, `nul`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out := redactJSON(in, mask)
		if !json.Valid(in) {
			return
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber() // 1e400 is valid JSON, too large for a float64
		if err := dec.Decode(&v); err != nil || dec.More() {
			t.Fatalf("redactJSON(%q) = %q: %v", in, out, err)
		}
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				if strings.Contains(x, secret) {
					t.Fatalf("redactJSON(%q) = %q keeps the secret", in, out)
				}
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					walk(k)
					walk(e)
				}
			}
		}
		walk(v)
	})
}
