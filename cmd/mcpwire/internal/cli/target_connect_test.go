package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// parseTarget parses args against fresh TargetFlags.
func parseTarget(t *testing.T, args ...string) (*TargetFlags, Parsed) {
	t.Helper()
	var o TargetFlags
	fs := NewFlagSet("t")
	o.Register(fs)
	p, err := Parse(fs, args)
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	return &o, p
}

func TestEachStopsAtBadArgumentsBeforeConnecting(t *testing.T) {
	cases := []struct {
		args     []string
		min, max int
		want     string
	}{
		// The server is checked first: without one, the count of the
		// other arguments means nothing.
		{[]string{"a", "b", "http://"}, 0, 0, "URL is not valid"},
		{[]string{"extra", "--", "srv"}, 0, 0, "takes none besides the server"},
		{[]string{"--", "srv"}, 1, 1, "missing URI"},
		{[]string{"a", "b", "--", "srv"}, 1, 1, "expected only URI"},
		{[]string{"--server", "x", "--", "srv"}, 0, 0, "cannot be combined with a URL or a -- COMMAND"},
	}
	for _, c := range cases {
		o, p := parseTarget(t, c.args...)
		err := o.Each(t.Context(), &IOStreams{}, p, c.min, c.max, "URI", func(Conn, []string) error {
			t.Errorf("%q: fn ran although the arguments were wrong", c.args)
			return nil
		})
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want a usage error with %q", c.args, err, c.want)
		}
	}
}

func TestWithClientConnectFailure(t *testing.T) {
	o, p := parseTarget(t, "--", "/nonexistent/mcpwire-test-server")
	tg, _, err := o.Resolve(&IOStreams{}, p)
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
