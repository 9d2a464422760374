package cli

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

func TestServeFlagsParse(t *testing.T) {
	t.Setenv("MCPWIRE_TEST_SERVE_TOKEN", "tok")
	t.Setenv("MCPWIRE_TEST_SERVE_UNSET", "")
	for _, tc := range []struct {
		args []string
		want string // "" for valid
	}{
		{[]string{"--stdio"}, ""},
		{[]string{"--listen", ":0", "--allowed-host", "mcp.internal", "--legacy-sse"}, ""},
		{[]string{"--stdio", "--prefix", "alpha=a", "--prefix", "beta=", "--separator", "."}, ""},
		{nil, "one of --stdio and --listen"},
		{[]string{"--stdio", "--listen", ":0"}, "one of --stdio and --listen"},
		{[]string{"--stdio", "--allowed-host", "x"}, "--allowed-host is for --listen"},
		{[]string{"--listen", ":0", "--auth-token-env", "MCPWIRE_TEST_SERVE_TOKEN"}, ""},
		{[]string{"--listen", ":0", "--auth-token-env", "MCPWIRE_TEST_SERVE_UNSET"}, "MCPWIRE_TEST_SERVE_UNSET is not set or empty"},
		{[]string{"--stdio", "--auth-token-env", "MCPWIRE_TEST_SERVE_TOKEN"}, "--auth-token-env is for --listen"},
		{[]string{"--listen", ":0", "--no-auth"}, ""},
		{[]string{"--stdio", "--no-auth"}, "--no-auth is for --listen"},
		{[]string{"--listen", ":0", "--no-auth", "--auth-token-env", "MCPWIRE_TEST_SERVE_TOKEN"}, "--no-auth is for --listen, without"},
		{[]string{"--stdio", "--separator", ""}, "--separator must not be empty"},
		{[]string{"--stdio", "--prefix", "alpha"}, "--prefix #1 is not in SERVER=PREFIX form"},
		{[]string{"--stdio", "--no-prefix", "--prefix", "a=b"}, "cannot be combined"},
		{[]string{"--stdio", "--audit-log", "a.jsonl", "--audit-args"}, ""},
		{[]string{"--stdio", "--audit-args"}, "--audit-args needs --audit-log"},
		{[]string{"--stdio", "--audit-log", "-"}, "standard output carries the protocol"},
		{[]string{"--listen", ":0", "--audit-log", "-"}, ""},
		{[]string{"--listen", ":0", "--oauth-issuer", "https://as.example", "--oauth-audience", "mcp"}, ""},
		{[]string{"--listen", ":0", "--oauth-issuer", "https://as.example"}, "needs --oauth-audience"},
		{[]string{"--listen", ":0", "--oauth-issuer", "as.example", "--oauth-audience", "mcp"}, "--oauth-issuer: not an absolute http or https URL"},
		{[]string{"--listen", ":0", "--oauth-issuer", "https://as.example", "--oauth-audience", "mcp", "--oauth-jwks", "ftp://x"}, "--oauth-jwks: not an absolute"},
		{[]string{"--listen", ":0", "--oauth-issuer", "http://as.example", "--oauth-audience", "mcp"}, "--oauth-issuer: not an https URL (plain http is for loopback only"},
		{[]string{"--listen", ":0", "--oauth-issuer", "https://as.example", "--oauth-audience", "mcp", "--oauth-jwks", "http://keys.example/jwks"}, "--oauth-jwks: not an https URL"},
		{[]string{"--listen", ":0", "--oauth-issuer", "http://127.0.0.1:9/", "--oauth-audience", "mcp", "--oauth-jwks", "http://localhost:9/jwks"}, ""},
		{[]string{"--listen", ":0", "--oauth-audience", "mcp"}, "need --oauth-issuer"},
		{[]string{"--stdio", "--oauth-issuer", "https://as.example", "--oauth-audience", "mcp"}, "--oauth-issuer is for --listen"},
		{[]string{"--listen", ":0", "--auth-token-env", "MCPWIRE_TEST_SERVE_TOKEN", "--oauth-issuer", "https://as.example", "--oauth-audience", "mcp"}, "cannot be combined"},
		{[]string{"--stdio", "--max-requests-per-session", "8"}, ""},
		{[]string{"--listen", ":0", "--max-requests-per-session", "0"}, ""},
		{[]string{"--stdio", "--max-requests-per-session", "-1"}, "--max-requests-per-session must not be negative (0: no cap)"},
		{[]string{"--listen", ":0", "--max-stateless-requests", "0"}, ""},
		{[]string{"--listen", ":0", "--max-stateless-requests", "-1"}, "--max-stateless-requests must not be negative (0: no cap)"},
		{[]string{"--stdio", "--max-stateless-requests", "8"}, "--max-stateless-requests is for --listen"},
	} {
		checkServeFlags(t, tc.args, tc.want)
	}
}

// The flags' 0 ("no cap", "never") is the library's negative, and their
// defaults are the library's: the CLI serves as it did before the
// library got defaults of its own.
func TestServeBoundsMapToTheLibrary(t *testing.T) {
	for _, tc := range []struct {
		args                         []string
		idle                         time.Duration
		sessions, maxReqs, stateless int
	}{
		{nil, gateway.DefaultSessionIdleTimeout, gateway.DefaultMaxSessions, gateway.DefaultMaxInFlight, gateway.DefaultMaxStatelessRequests},
		{[]string{"--session-idle-timeout", "0", "--max-sessions", "0", "--max-requests-per-session", "0", "--max-stateless-requests", "0"}, -1, -1, -1, -1},
		{[]string{"--session-idle-timeout", "1m", "--max-sessions", "3", "--max-requests-per-session", "4", "--max-stateless-requests", "5"}, time.Minute, 3, 4, 5},
	} {
		o := &gatewayOptions{}
		fs := NewFlagSet("serve")
		o.Flags(fs)
		if err := fs.Parse(append([]string{"--listen", ":0"}, tc.args...)); err != nil {
			t.Fatal(err)
		}
		h := o.httpOptions("", nil)
		if h.SessionIdleTimeout != tc.idle || h.MaxSessions != tc.sessions {
			t.Errorf("%q: idle %v, sessions %d; want %v, %d", tc.args, h.SessionIdleTimeout, h.MaxSessions, tc.idle, tc.sessions)
		}
		if h.MaxStatelessRequests != tc.stateless {
			t.Errorf("%q: stateless requests %d, want %d", tc.args, h.MaxStatelessRequests, tc.stateless)
		}
		if got := o.maxInFlight(); got != tc.maxReqs {
			t.Errorf("%q: gateway MaxInFlight %d, want %d", tc.args, got, tc.maxReqs)
		}
	}
}

// gatewayConfig writes a config with two example servers, alpha and
// beta; beta crashes when its echo is called.
func gatewayConfig(t *testing.T) string { return gatewayConfigAlpha(t, nil) }

// gatewayConfigAlpha is gatewayConfig with more fields in alpha's entry.
func gatewayConfigAlpha(t *testing.T, alpha map[string]any) string {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	server := func(fields map[string]any, args ...string) string {
		entry := map[string]any{"command": os.Args[0], "args": append([]string{ServeName}, args...)}
		maps.Copy(entry, fields)
		b, _ := json.Marshal(entry)
		return string(b)
	}
	path := filepath.Join(t.TempDir(), "servers.json")
	write(t, path, `{"mcpServers": {"alpha": `+server(alpha)+`, "beta": `+server(nil, "--faults", "crash:echo")+`}}`)
	return path
}

// gatewayClient starts "mcpwire serve --stdio" (this test binary) on cfg
// and connects the project's client to it.
func gatewayClient(t *testing.T, opts *mcp.ClientOptions, args ...string) *mcp.Client {
	t.Helper()
	tr, err := transport.FromServer(&config.Server{Type: config.TypeStdio, Command: os.Args[0],
		Args: append([]string{"serve", "--stdio"}, args...), InheritEnv: true}, transport.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcp.Connect(t.Context(), tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func toolNames(t *testing.T, c *mcp.Client) []string {
	t.Helper()
	tools, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	return names
}

func textOf(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if c.Text != "" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, " ")
}

func TestServeStdioAggregates(t *testing.T) {
	for _, version := range []string{"2025-11-25", mcp.ModernProtocolVersion} {
		t.Run(version, func(t *testing.T) { testServeStdioAggregates(t, version) })
	}
}

func testServeStdioAggregates(t *testing.T, version string) {
	cfg := gatewayConfig(t)
	changed := make(chan struct{}, 1)
	c := gatewayClient(t, &mcp.ClientOptions{ProtocolVersion: version, OnToolsListChanged: func(context.Context) {
		select {
		case changed <- struct{}{}:
		default:
		}
	}}, "--config", cfg)
	if got := c.ProtocolVersion(); got != version {
		t.Fatalf("negotiated %s", got)
	}
	ctx := t.Context()

	names := toolNames(t, c)
	for _, want := range []string{"alpha__echo", "beta__echo", "alpha__slow", "beta__add"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools/list lacks %s: %v", want, names)
		}
	}

	res, err := c.CallTool(ctx, "alpha__echo", map[string]any{"message": "through the gateway"}, nil)
	if err != nil || textOf(res) != "through the gateway" {
		t.Fatalf("alpha__echo: %v %+v", err, res)
	}

	// Progress flows back from the upstream.
	var steps []float64
	res, err = c.CallTool(ctx, "alpha__slow", map[string]any{"steps": 3, "delay_ms": 1},
		&mcp.CallOptions{OnProgress: func(_ context.Context, p mcp.ProgressNotification) { steps = append(steps, p.Progress) }})
	if err != nil || res.IsError || len(steps) != 3 {
		t.Fatalf("alpha__slow: err %v, progress %v", err, steps)
	}

	// An upstream's list_changed becomes the gateway's own.
	if res, err := c.CallTool(ctx, "alpha__add-tool", map[string]any{"name": "extra"}, nil); err != nil || res.IsError {
		t.Fatalf("add-tool: %v %+v", err, res)
	}
	// A bound only for failing: without it a lost notification would
	// show as the whole test binary's timeout.
	wait, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	select {
	case <-changed:
	case <-wait.Done():
		t.Fatal("no notifications/tools/list_changed from the gateway")
	}
	if names := toolNames(t, c); !slices.Contains(names, "alpha__extra") {
		t.Fatalf("after list_changed: %v", names)
	}

	// The host's cancellation ends the call; the gateway goes on.
	cctx, cancel := context.WithCancel(ctx)
	_, err = c.CallTool(cctx, "alpha__slow", map[string]any{"steps": 100000, "delay_ms": 1000},
		&mcp.CallOptions{OnProgress: func(context.Context, mcp.ProgressNotification) { cancel() }})
	cancel()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call: %v", err)
	}

	// beta dies mid-run: its call fails naming it, alpha goes on.
	res, err = c.CallTool(ctx, "beta__echo", map[string]any{"message": "boom"}, nil)
	if err == nil && (!res.IsError || !strings.Contains(textOf(res), `"beta"`)) {
		t.Fatalf("call to the crashing server: %+v", res)
	}
	if err != nil && !strings.Contains(err.Error(), "beta") {
		t.Fatalf("call to the crashing server: %v", err)
	}
	res, err = c.CallTool(ctx, "alpha__echo", map[string]any{"message": "still here"}, nil)
	if err != nil || textOf(res) != "still here" {
		t.Fatalf("alpha__echo after beta died: %v %+v", err, res)
	}
}

func TestServeNoPrefixCollisionFailsAtStart(t *testing.T) {
	cfg := gatewayConfig(t)
	r := run(t, "serve", "--stdio", "--no-prefix", "--config", cfg)
	// One line a name, with the servers that offer it, then what to do;
	// no usage hint: the command line is fine, the servers collide.
	if r.code != ExitUsage || !strings.Contains(r.err, "tool names are offered by more than one server:\n") ||
		!strings.Contains(r.err, "\n  \"echo\": server \"alpha\" (its tool \"echo\"), server \"beta\" (its tool \"echo\")\n") ||
		!strings.Contains(r.err, "drop --no-prefix") || strings.Contains(r.err, "\u23ce") || strings.Contains(r.err, "for usage") {
		t.Fatalf("exit %d, stderr %q", r.code, r.err)
	}
}

func TestServeOneServerAsIs(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	c := gatewayClient(t, nil, "--", os.Args[0], ServeName)
	names := toolNames(t, c)
	if !slices.Contains(names, "echo") || slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "__") }) {
		t.Fatalf("one server is served under its own names: %v", names)
	}
}

func TestServeOneConfiguredServer(t *testing.T) {
	cfg := gatewayConfig(t)
	names := toolNames(t, gatewayClient(t, nil, "--config", cfg, "--server", "alpha"))
	if !slices.Contains(names, "alpha__echo") || slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "beta__") }) {
		t.Fatalf("--server alpha serves %v", names)
	}
	r := run(t, "serve", "--stdio", "--config", cfg, "--server", "gamma")
	if r.code != ExitUsage || !strings.Contains(r.err, "gamma") {
		t.Fatalf("unknown server: exit %d, stderr %q", r.code, r.err)
	}
}
