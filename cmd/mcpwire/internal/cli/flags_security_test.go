package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/transport"
)

// Static credentials (--header, --bearer-token-env) never go in clear
// text to another machine: the command stops before connecting, says why
// and names the flag that allows it, and shows no value.
func TestStaticCredentialsRefusedOverPlainHTTPToAnotherMachine(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_TOKEN", "tok-cleartext-123")
	for _, flags := range [][]string{
		{"--header", "Authorization: Bearer k3y-cleartext-456"},
		{"--header", "X-Api-Key: k3y-cleartext-456"},
		{"--bearer-token-env", "MCPWIRE_TEST_TOKEN"},
	} {
		r := run(t, args(a("tools"), flags, a("http://mcp.example.test:8080/mcp"))...).wantCode(t, ExitUsage)
		if !strings.Contains(r.err, "clear text") || !strings.Contains(r.err, "--allow-insecure-http") || !strings.Contains(r.err, "mcp.example.test:8080") {
			t.Errorf("%q: stderr %q, want the reason, the server and the flag", flags, r.err)
		}
		if strings.Contains(r.err, "cleartext-") {
			t.Errorf("%q: stderr shows the value: %q", flags, r.err)
		}
		// The flag lifts the rule (for a lab network).
		tg, _, _, err := resolve(t, args(flags, a("--allow-insecure-http", "http://mcp.example.test:8080/mcp"))...)
		if err != nil {
			t.Fatalf("%q with --allow-insecure-http: %v", flags, err)
		}
		if tg.Transport.(*transport.Auto).Headers.Get("Authorization") == "" && tg.Transport.(*transport.Auto).Headers.Get("X-Api-Key") == "" {
			t.Errorf("%q: the header was dropped", flags)
		}
	}
	// Loopback needs no flag: nothing crosses a network.
	if _, _, _, err := resolve(t, "--bearer-token-env", "MCPWIRE_TEST_TOKEN", "http://127.0.0.1:1/mcp"); err != nil {
		t.Fatalf("loopback: %v", err)
	}
}

// Whichever layer refused clear text (OAuth, or the configured headers),
// the report ends with a hint that names --allow-insecure-http.
func TestReportHintsAtAllowInsecureHTTP(t *testing.T) {
	for _, cause := range []error{auth.ErrInsecureHTTP, transport.ErrInsecureHTTP} {
		var out strings.Builder
		io := &IOStreams{ErrOut: &out}
		err := &ConnectError{Target: "http://mcp.example.test/mcp", Err: fmt.Errorf("refused: %w", cause)}
		Report(context.Background(), io, err)
		if !strings.Contains(out.String(), "hint:") || !strings.Contains(out.String(), "--allow-insecure-http") {
			t.Errorf("%v: report %q, want a hint naming --allow-insecure-http", cause, out.String())
		}
	}
	var out strings.Builder
	Report(context.Background(), &IOStreams{ErrOut: &out}, &ConnectError{Target: "x", Err: errors.New("refused")})
	if strings.Contains(out.String(), "--allow-insecure-http") {
		t.Errorf("an unrelated error got the hint: %q", out.String())
	}
}
