package paramheader

import (
	"context"
	"slices"
	"testing"
)

func TestWithAndFrom(t *testing.T) {
	ctx := context.Background()
	if got := From(ctx); got != nil {
		t.Errorf("From(empty ctx) = %v, want nil", got)
	}
	if With(ctx, nil) != ctx {
		t.Error("With(ctx, nil) made a new context; it should hand ctx back")
	}
	h := []Header{{Name: "Region", Value: "eu"}, {Name: "Tenant", Value: "a b"}}
	if got := From(With(ctx, h)); !slices.Equal(got, h) {
		t.Errorf("From(With(h)) = %v, want %v", got, h)
	}
}

// A header name after "Mcp-Param-" is an RFC 9110 token: letters, digits
// and !#$%&'*+-.^_`|~, at least one of them.
func TestValidName(t *testing.T) {
	for _, ok := range []string{"Region", "x", "a1", "!#$%&'*+-.^_`|~"} {
		if !ValidName(ok) {
			t.Errorf("ValidName(%q) = false, want true", ok)
		}
	}
	for _, bad := range []string{"", "Bad Name", "a:b", "a/b", "é", "a\tb", "(x)", `"q"`, "a\x7f"} {
		if ValidName(bad) {
			t.Errorf("ValidName(%q) = true, want false", bad)
		}
	}
}
