package cli

import (
	"errors"
	"strings"
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

// A WebSocket URL is meant as a server and refused naming its scheme,
// ad hoc or among configured servers; other schemes stay arguments.
func TestWebSocketURLIsRefused(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"ping", "ws://127.0.0.1:1/mcp"}, {"tools", "WSS://h.example/mcp?key=s3cret-v"}} {
		r := run(t, args...)
		if r.code != ExitUsage || !strings.Contains(r.err, "is not a transport MCP defines") || strings.Contains(r.err, "s3cret") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.err)
		}
	}
	if _, ok := otherSchemeURL("file:///x"); ok {
		t.Error("a file:// resource URI taken for a server URL")
	}
}
