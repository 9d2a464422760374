package transport

import (
	"strings"
	"testing"
)

// The identity names the server, not its credentials or its run: the
// environment, the query and the userinfo do not change it, and nothing
// of the command line or URL is kept in the clear.
func TestServerIdentity(t *testing.T) {
	cmd := func(c *Command) string { _, k := c.ServerIdentity(); return k }
	base := cmd(&Command{Command: "srv", Args: []string{"--token", "s3cret"}})
	if base == "" || strings.Contains(base, "s3cret") || strings.Contains(base, "srv") {
		t.Fatalf("key %q", base)
	}
	withEnv := &Command{Command: "srv", Args: []string{"--token", "s3cret"}, Env: map[string]string{"MODE": "a", "API_KEY": "x"}}
	for range 3 { // map order must not matter
		if k := cmd(withEnv); k != cmd(&Command{Command: "srv", Args: []string{"--token", "s3cret"}, Env: map[string]string{"API_KEY": "x", "MODE": "a"}}) {
			t.Fatal("the same environment gave two keys")
		}
	}
	// The same program with another environment is often another server
	// (a mode, an account): it must not inherit the first one's era.
	for _, other := range []*Command{
		{Command: "srv", Args: []string{"--token", "other"}},
		{Command: "srv", Args: []string{"--token s3cret"}},
		{Command: "srv", Args: []string{"--token", "s3cret"}, Dir: "/tmp"},
		withEnv,
		{Command: "srv", Args: []string{"--token", "s3cret"}, Env: map[string]string{"MODE": "b", "API_KEY": "x"}},
		{Command: "srv", Args: []string{"--token", "s3cret"}, InheritEnv: true},
	} {
		if cmd(other) == base {
			t.Errorf("%+v has the key of another command", other)
		}
	}
	if k := cmd(&Command{}); k != "" {
		t.Errorf("no command: key %q", k)
	}

	kind, key := (&StreamableHTTP{URL: "https://user:pw@Example.com/mcp?token=1"}).ServerIdentity()
	if kind != "http" || key == "" {
		t.Fatalf("kind %q key %q", kind, key)
	}
	if _, k := (&Auto{URL: "https://example.com/mcp"}).ServerIdentity(); k != key {
		t.Error("userinfo, query or the host's case changed the key")
	}
	if _, k := (&Auto{URL: "https://example.com/other"}).ServerIdentity(); k == key {
		t.Error("another path has the same key")
	}
	if kind, _ := (&SSE{URL: "https://example.com/sse"}).ServerIdentity(); kind != "sse" {
		t.Errorf("SSE kind %q", kind)
	}
	if _, k := (&StreamableHTTP{URL: "::"}).ServerIdentity(); k != "" {
		t.Errorf("bad URL: key %q", k)
	}
	rec := Record(&StreamableHTTP{URL: "https://example.com/mcp"}, NewRecorder(&strings.Builder{}), "http")
	if id, ok := rec.(Identifier); !ok {
		t.Error("a recorded transport hides the identity")
	} else if _, k := id.ServerIdentity(); k != key {
		t.Error("a recorded transport changes the key")
	}
}
