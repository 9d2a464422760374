package inspect

import (
	"strings"
	"testing"
)

func TestRedactJSON(t *testing.T) {
	mask := func(s string) string { return strings.ReplaceAll(s, "s3cret-value", "***") }
	for _, c := range []struct{ in, want string }{
		{`{"a":"the s3cret-value here","n":1.50,"s3cret-value":[true,null,"s3cret-value"]}`, `{"***":[true,null,"***"],"a":"the *** here","n":1.50}`},
		{`{"b":2,"a":"nothing secret"}`, `{"b":2,"a":"nothing secret"}`}, // unchanged, as sent
		{`not json s3cret-value`, `not json s3cret-value`},
		{`"s3cret-value"`, `"***"`},
	} {
		if got := string(redactJSON([]byte(c.in), mask)); got != c.want {
			t.Errorf("redactJSON(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}
