package cli

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// resolve parses args with the server flags and resolves the target.
func resolve(t *testing.T, args ...string) (*Target, []string, *IOStreams, error) {
	t.Helper()
	var f ServerFlags
	fs := NewFlagSet("t")
	f.Register(fs)
	p, err := Parse(fs, args)
	if err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	io := &IOStreams{}
	tg, rest, err := f.Resolve(io, p)
	return tg, rest, io, err
}

func TestResolveStdio(t *testing.T) {
	tg, rest, io, err := resolve(t, "echo", "--env", "A=1", "--env", "TOKEN=s3cret-value=x", "--timeout", "0", "--", "/usr/bin/srv", "--port", "1")
	if err != nil {
		t.Fatal(err)
	}
	if len(rest) != 1 || rest[0] != "echo" {
		t.Errorf("rest = %q", rest)
	}
	cmd, ok := tg.Transport.(*transport.Command)
	if !ok {
		t.Fatalf("transport is %T", tg.Transport)
	}
	if cmd.Command != "/usr/bin/srv" || strings.Join(cmd.Args, " ") != "--port 1" {
		t.Errorf("command = %q %q", cmd.Command, cmd.Args)
	}
	if cmd.Env["A"] != "1" || cmd.Env["TOKEN"] != "s3cret-value=x" || cmd.InheritEnv {
		t.Errorf("env = %v inherit %v", cmd.Env, cmd.InheritEnv)
	}
	if tg.Timeout != jsonrpc.NoTimeout {
		t.Errorf("--timeout 0 gave %v, want NoTimeout", tg.Timeout)
	}
	if tg.Desc != `stdio server "srv"` {
		t.Errorf("Desc = %q", tg.Desc)
	}
	if io.Redact("x s3cret-value=x y") != "x *** y" {
		t.Errorf("env value not registered as a secret")
	}
}

func TestResolveURL(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_TOKEN", "tok-abcdef123")
	tg, rest, io, err := resolve(t, "read", "mcp://res", "--header", "X-Api-Key:  k3y-value ", "--bearer-token-env", "MCPWIRE_TEST_TOKEN",
		"https://user:pw-secret@example.com/mcp?key=q-secret")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rest, " ") != "read mcp://res" {
		t.Errorf("rest = %q", rest)
	}
	auto, ok := tg.Transport.(*transport.Auto)
	if !ok {
		t.Fatalf("transport is %T", tg.Transport)
	}
	want := http.Header{"X-Api-Key": {"k3y-value"}, "Authorization": {"Bearer tok-abcdef123"}}
	if auto.Headers.Get("X-Api-Key") != want.Get("X-Api-Key") || auto.Headers.Get("Authorization") != want.Get("Authorization") {
		t.Errorf("headers = %v", auto.Headers)
	}
	if tg.Desc != "https://example.com/mcp" {
		t.Errorf("Desc = %q", tg.Desc)
	}
	if tg.Timeout != jsonrpc.DefaultTimeout {
		t.Errorf("Timeout = %v", tg.Timeout)
	}
	for _, s := range []string{"tok-abcdef123", "k3y-value", "pw-secret", "q-secret"} {
		if io.Redact("["+s+"]") != "[***]" {
			t.Errorf("%s not registered as a secret", s)
		}
	}
}

func TestResolveTransportKinds(t *testing.T) {
	for flagValue, want := range map[string]any{
		"auto": &transport.Auto{},
		"http": &transport.StreamableHTTP{},
		"sse":  &transport.SSE{},
	} {
		tg, _, _, err := resolve(t, "--transport", flagValue, "http://127.0.0.1:1/mcp")
		if err != nil {
			t.Fatalf("%s: %v", flagValue, err)
		}
		if got, w := typeName(tg.Transport), typeName(want); got != w {
			t.Errorf("--transport %s: %s, want %s", flagValue, got, w)
		}
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }

func TestResolveVerboseTeesStderr(t *testing.T) {
	tg, _, _, err := resolve(t, "--verbose", "--", "srv")
	if err != nil {
		t.Fatal(err)
	}
	if cmd := tg.Transport.(*transport.Command); cmd.Stderr == nil || !tg.Verbose {
		t.Error("--verbose did not set up stderr")
	}
	tg, _, _, err = resolve(t, "--stderr", "--", "srv")
	if err != nil || !tg.Verbose {
		t.Errorf("--stderr: %v %v", tg, err)
	}
}

func TestResolveErrors(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_EMPTY", "")
	cases := []struct {
		args []string
		want string
	}{
		{nil, "no server given"},
		{[]string{"echo"}, "not an http:// or https:// URL"},
		{[]string{"tok-secret-word"}, "not an http:// or https:// URL"},
		{[]string{"--"}, "nothing after --"},
		{[]string{"--header", "A: b", "--", "srv"}, "are for URL servers"},
		{[]string{"--bearer-token-env", "X", "--", "srv"}, "are for URL servers"},
		{[]string{"--transport", "sse", "--", "srv"}, "for URL servers"},
		{[]string{"--env", "A=1", "http://h/"}, "are for stdio commands"},
		{[]string{"--env", "noequals-s3cret", "--", "srv"}, "--env #1 is not in K=V form"},
		{[]string{"--env", "=s3cret", "--", "srv"}, "--env #1 is not in K=V form"},
		{[]string{"--header", "Authorization Bearer s3cret", "http://h/"}, "--header #1 is not in 'Name: value' form"},
		{[]string{"--header", "Bad Name: s3cret", "http://h/"}, "--header #1 is not in 'Name: value' form"},
		{[]string{"--bearer-token-env", "MCPWIRE_TEST_UNSET_VAR", "http://h/"}, "MCPWIRE_TEST_UNSET_VAR is unset or empty"},
		{[]string{"--bearer-token-env", "MCPWIRE_TEST_EMPTY", "http://h/"}, "MCPWIRE_TEST_EMPTY is unset or empty"},
		{[]string{"--transport", "carrier-pigeon", "http://h/"}, "--transport must be auto, http or sse"},
		{[]string{"http://"}, "URL is not valid"},
	}
	for _, c := range cases {
		_, _, _, err := resolve(t, c.args...)
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err = %v, want a usage error with %q", c.args, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%q: error %q shows a secret", c.args, err)
		}
	}
}

func TestResolveBothAuthorizations(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_TOKEN", "tok-abcdef123")
	_, _, _, err := resolve(t, "--bearer-token-env", "MCPWIRE_TEST_TOKEN", "--header", "authorization: Basic x", "http://h/")
	if err == nil || !strings.Contains(err.Error(), "use one") || strings.Contains(err.Error(), "tok-") {
		t.Errorf("err = %v", err)
	}
}
