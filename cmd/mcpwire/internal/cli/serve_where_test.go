package cli

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// connectsTo connects to url without a token and expects the gateway's
// tools: the URL serve printed works, Host check included.
func connectsTo(t *testing.T, url string) {
	t.Helper()
	tr, err := transport.FromServer(&config.Server{Type: config.TypeHTTP, URL: url}, transport.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcp.Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatalf("connecting to the printed URL %s: %v", url, err)
	}
	defer c.Close()
	if names := toolNames(t, c); !slices.Contains(names, "alpha__echo") {
		t.Fatalf("tools: %v", names)
	}
}

// On a wildcard address serve prints a URL that works from this machine
// (it printed http://[::]:PORT/mcp, whose Host it then refused), says how
// other machines reach it, and warns in one line that --no-auth there
// opens every tool to the network.
func TestServeWildcardListenSaysAUsableURL(t *testing.T) {
	url, said := listenGatewaySaying(t, "--listen", "0.0.0.0:0", "--no-auth", "--allowed-host", "mcp.example", "--config", gatewayConfig(t))
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/mcp") {
		t.Errorf("serving at %q, want this machine's loopback URL", url)
	}
	all := strings.Join(said, "\n")
	if !strings.Contains(all, "listening on every address of this machine") || !strings.Contains(all, "for a NAME given with --allowed-host (mcp.example)") {
		t.Errorf("no word of how other machines reach it: %q", said)
	}
	warned := slices.ContainsFunc(said, func(l string) bool {
		return strings.HasPrefix(l, "mcpwire: serve: warning: --no-auth on ") && strings.Contains(l, "not loopback: anyone who can reach port")
	})
	if !warned {
		t.Errorf("no network warning for --no-auth: %q", said)
	}
	connectsTo(t, url)
}

// On loopback the --no-auth warning speaks of this machine only.
func TestServeNoAuthOnLoopbackWarnsOfThisMachine(t *testing.T) {
	url, said := listenGatewaySaying(t, "--no-auth", "--config", gatewayConfig(t))
	if !slices.Contains(said, "mcpwire: serve: warning: --no-auth: any process on this machine that reaches the port can call every served tool") {
		t.Errorf("lines: %q", said)
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("serving at %q", url)
	}
}

// A short --auth-token-env token is taken, with a warning that never
// shows it.
func TestServeWarnsOfAShortToken(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_WEAK_TOKEN", "weak-tok-4242")
	url, said := listenGatewaySaying(t, "--auth-token-env", "MCPWIRE_TEST_WEAK_TOKEN", "--config", gatewayConfig(t))
	i := slices.IndexFunc(said, func(l string) bool {
		return strings.Contains(l, "warning: the token in MCPWIRE_TEST_WEAK_TOKEN is shorter than 32 characters")
	})
	if i < 0 {
		t.Fatalf("no warning: %q", said)
	}
	if strings.Contains(strings.Join(said, "\n"), "weak-tok-4242") || strings.Contains(said[i], "13") {
		t.Errorf("the warning shows the token or its length: %q", said)
	}
	listsToolsWithToken(t, url, "weak-tok-4242")

	t.Setenv("MCPWIRE_TEST_STRONG_TOKEN", strings.Repeat("k", 32))
	_, said = listenGatewaySaying(t, "--auth-token-env", "MCPWIRE_TEST_STRONG_TOKEN", "--config", gatewayConfig(t))
	if strings.Contains(strings.Join(said, "\n"), "shorter than") {
		t.Errorf("a 32-character token is warned of: %q", said)
	}
}

// A bracketed IPv6 --allowed-host matches a Host naming it with a port
// (it got 403: the check compared it with its brackets).
func TestServeAllowedHostIPv6Bracketed(t *testing.T) {
	url := listenGateway(t, "--allowed-host", "[fe80::1]", "--config", gatewayConfig(t))
	for _, host := range []string{"[fe80::1]:1234", "[fe80::1]"} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusForbidden {
			t.Errorf("Host %q: 403", host)
		}
	}
	r := run(t, "serve", "--listen", "127.0.0.1:99999", "--no-auth", "--allowed-host", "*", "--", os.Args[0], ServeName).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, "wildcards are not supported") || !strings.Contains(r.err, "DNS rebinding") {
		t.Errorf("--allowed-host '*': %q", r.err)
	}
}
