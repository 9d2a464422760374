package cli

import (
	"errors"
	"testing"
)

func TestIsURL(t *testing.T) {
	for arg, want := range map[string]bool{
		"http://h/":       true,
		"HTTPS://h/mcp":   true,
		"https://":        true, // a URL, if not a valid one: ParseServerURL says so
		"github":          false,
		"ftp://h/":        false,
		"mcptest://x":     false,
		"http:/h":         false,
		"":                false,
		"github/do_thing": false,
	} {
		if got := IsURL(arg); got != want {
			t.Errorf("IsURL(%q) = %v, want %v", arg, got, want)
		}
	}
}

func TestParseServerURL(t *testing.T) {
	io := &IOStreams{}
	name, err := ParseServerURL(io, "https://user:pa55word-x@h.example:8443/mcp?key=k3y-value&x=1#frag")
	if err != nil {
		t.Fatal(err)
	}
	if name != "https://h.example:8443/mcp" {
		t.Errorf("name = %q", name)
	}
	if got := io.Redact("pa55word-x k3y-value"); got != "*** ***" {
		t.Errorf("secrets not registered: %q", got)
	}
	for _, raw := range []string{"http://", "https://%zz/"} {
		_, err := ParseServerURL(&IOStreams{}, raw)
		var u *UsageError
		if !errors.As(err, &u) || u.Msg != "the server URL is not valid" {
			t.Errorf("%q: err = %v, want the usage error", raw, err)
		}
	}
}
