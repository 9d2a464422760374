package cli

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// parseServerOptions parses args against a fresh ServerOptions.
func parseServerOptions(t *testing.T, args ...string) (*ServerOptions, Parsed) {
	t.Helper()
	var o ServerOptions
	fs := NewFlagSet("t")
	o.Register(fs)
	p, err := Parse(fs, args)
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	return &o, p
}

func TestServerOptionsRegister(t *testing.T) {
	o, _ := parseServerOptions(t, "--json", "--timeout", "3s", "--", "srv")
	if !o.JSON || o.Timeout != 3*time.Second {
		t.Errorf("--json %v --timeout %v, want true and 3s", o.JSON, o.Timeout)
	}
}

func TestResolveArgs(t *testing.T) {
	o, p := parseServerOptions(t, "mcp://res", "--", "srv")
	tg, args, err := o.ResolveArgs(&IOStreams{}, p, 1, "URI")
	if err != nil {
		t.Fatal(err)
	}
	if tg.Desc != `stdio server "srv"` || len(args) != 1 || args[0] != "mcp://res" {
		t.Errorf("target %q, args %q", tg.Desc, args)
	}
}

func TestResolveArgsErrors(t *testing.T) {
	cases := []struct {
		args []string
		n    int
		want string
	}{
		// The server is checked first: without one, the count of the
		// other arguments means nothing.
		{[]string{"a", "b"}, 0, "no server given"},
		{[]string{"extra", "--", "srv"}, 0, "takes none besides the server"},
		{[]string{"--", "srv"}, 1, "missing URI"},
		{[]string{"a", "b", "--", "srv"}, 1, "expected only URI"},
	}
	for _, c := range cases {
		o, p := parseServerOptions(t, c.args...)
		_, _, err := o.ResolveArgs(&IOStreams{}, p, c.n, "URI")
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q with %d: err = %v, want a usage error with %q", c.args, c.n, err, c.want)
		}
	}
}

func TestWithServerStopsAtBadArguments(t *testing.T) {
	o, p := parseServerOptions(t, "extra", "--", "srv")
	err := o.WithServer(t.Context(), &IOStreams{}, p, 0, "", func(*mcp.Client, *Target, []string) error {
		t.Error("fn ran although the arguments were wrong")
		return nil
	})
	var u *UsageError
	if !errors.As(err, &u) {
		t.Errorf("err = %v, want a usage error", err)
	}
}

func TestWithClientConnectFailure(t *testing.T) {
	o, p := parseServerOptions(t, "--", "/nonexistent/mcpwire-test-server")
	tg, _, err := o.ResolveArgs(&IOStreams{}, p, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	err = WithClient(t.Context(), &IOStreams{}, tg, func(*mcp.Client) error {
		t.Error("fn ran without a connection")
		return nil
	})
	var ce *ConnectError
	if !errors.As(err, &ce) || ce.Target != tg.Desc {
		t.Errorf("err = %v, want a *ConnectError for %s", err, tg.Desc)
	}
}
