package cli

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// listenGateway starts "mcpwire serve --listen 127.0.0.1:0" (this test
// binary) and returns its endpoint; the test's end interrupts it. Unless
// args choose a token, it serves with --no-auth: these tests are about
// the endpoint, not its token (TestServeHTTPTokenByDefault is).
func listenGateway(t *testing.T, args ...string) string {
	t.Helper()
	if !slices.Contains(args, "--auth-token-env") {
		args = append([]string{"--no-auth"}, args...)
	}
	url, _ := listenGatewaySaying(t, args...)
	return url
}

// listenGatewaySaying is listenGateway with args as given; it also returns
// the lines serve printed on stderr before the one that says where it
// serves.
func listenGatewaySaying(t *testing.T, args ...string) (string, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Interrupted, the gateway closes every session and server and
		// exits 0: being stopped is how a server's run ends.
		_ = cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			t.Errorf("gateway exit: %v", err)
		}
	})
	var before []string
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if u, ok := strings.CutPrefix(lines.Text(), "mcpwire: serving at "); ok {
			go func() {
				for lines.Scan() {
				}
			}()
			return u, before
		}
		before = append(before, lines.Text())
	}
	t.Fatal("the gateway ended without saying where it serves")
	return "", nil
}

func TestServeHTTPBothEras(t *testing.T) {
	cfg := gatewayConfig(t)
	url := listenGateway(t, "--config", cfg)
	for _, version := range []string{"2025-11-25", mcp.ModernProtocolVersion} {
		t.Run(version, func(t *testing.T) {
			tr, err := transport.FromServer(&config.Server{Type: config.TypeHTTP, URL: url}, transport.ServerOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c, err := mcp.Connect(t.Context(), tr, &mcp.ClientOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := c.ProtocolVersion(); got != version {
				t.Fatalf("negotiated %s", got)
			}
			if names := toolNames(t, c); !slices.Contains(names, "alpha__echo") || !slices.Contains(names, "beta__echo") {
				t.Fatalf("tools: %v", names)
			}
			var steps int
			res, err := c.CallTool(t.Context(), "alpha__slow", map[string]any{"steps": 2, "delay_ms": 1},
				&mcp.CallOptions{OnProgress: func(context.Context, mcp.ProgressNotification) { steps++ }})
			if err != nil || res.IsError || steps != 2 {
				t.Fatalf("alpha__slow: %v, %d progress", err, steps)
			}
		})
	}
}

func TestServeHTTPChecksHostAndOrigin(t *testing.T) {
	cfg := gatewayConfig(t)
	url := listenGateway(t, "--config", cfg, "--allowed-host", "mcp.example")
	for _, tc := range []struct {
		host, origin string
		refused      bool
	}{
		{"evil.example", "", true},
		{"mcp.example", "", false},
		{"", "http://evil.example", true},
		{"", "http://mcp.example:8080", false},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if tc.host != "" {
			req.Host = tc.host
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if (resp.StatusCode == http.StatusForbidden) != tc.refused {
			t.Errorf("Host %q Origin %q: status %d", tc.host, tc.origin, resp.StatusCode)
		}
	}
}

// With --auth-token-env, the endpoint wants the token: a host without it
// is refused with 401 and the bearer challenge, and one that sends it is
// served.
func TestServeHTTPBearerToken(t *testing.T) {
	cfg := gatewayConfig(t)
	t.Setenv("MCPWIRE_TEST_SERVE_TOKEN", "serve-s3cret")
	url := listenGateway(t, "--config", cfg, "--auth-token-env", "MCPWIRE_TEST_SERVE_TOKEN")

	resp := pingWithoutToken(t, url)
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer ") {
		t.Fatalf("without the token: %s, WWW-Authenticate %q", resp.Status, resp.Header.Get("WWW-Authenticate"))
	}
	listsToolsWithToken(t, url, "serve-s3cret")
}

// listsToolsWithToken connects to url sending token as a bearer token,
// and expects the gateway's tools.
func listsToolsWithToken(t *testing.T, url, token string) {
	t.Helper()
	tr, err := transport.FromServer(&config.Server{Type: config.TypeHTTP, URL: url,
		Headers: map[string]string{"Authorization": "Bearer " + token}}, transport.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcp.Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatalf("with the token: %v", err)
	}
	defer c.Close()
	if names := toolNames(t, c); !slices.Contains(names, "alpha__echo") {
		t.Fatalf("tools: %v", names)
	}
}

// pingWithoutToken posts a ping to url with no Authorization header.
func pingWithoutToken(t *testing.T, url string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// Without --auth-token-env, --oauth-issuer or --no-auth, the endpoint
// makes a token of its own and shows it once on stderr: a request without
// it gets 401, a host that sends it is served.
func TestServeHTTPTokenByDefault(t *testing.T) {
	url, said := listenGatewaySaying(t, "--config", gatewayConfig(t))
	token := ""
	for _, line := range said {
		if tok, ok := strings.CutPrefix(line, "mcpwire: serve: token: "); ok {
			token = tok
		}
	}
	if len(token) != 64 {
		t.Fatalf("no 256-bit token among serve's lines: %q", said)
	}
	resp := pingWithoutToken(t, url)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without the token: %s", resp.Status)
	}
	listsToolsWithToken(t, url, token)
}
