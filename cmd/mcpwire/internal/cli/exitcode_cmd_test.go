package cli

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// Each error class ends in its documented exit code with one clear line.

func TestExitToolError(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "fail"), server())...).wantCode(t, ExitToolError)
	if r.out != "the fail tool always fails\n" {
		t.Errorf("the error content was not printed: %q", r.out)
	}
	if r.err != "mcpwire: tool \"fail\" reported an error (isError)\n" {
		t.Errorf("stderr = %q", r.err)
	}
	// --json prints the result, isError included, and still exits 4.
	r = run(t, args(a("call", "fail", "--json"), server())...).wantCode(t, ExitToolError)
	if !strings.Contains(r.out, `"isError": true`) {
		t.Errorf("--json output = %q", r.out)
	}
}

// The CLI has the tool list: an unknown tool is the user's mistake,
// reported before any call, with the nearest names.
func TestExitUnknownToolIsUsage(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "ech"), server())...).wantCode(t, ExitUsage)
	if !strings.HasPrefix(r.err, "mcpwire: the server has no tool \"ech\"; did you mean \"echo\"?") {
		t.Errorf("stderr = %q", r.err)
	}
	r = run(t, args(a("call", "no-such-tool"), server())...).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, `no tool "no-such-tool"`) {
		t.Errorf("stderr = %q", r.err)
	}
	if r.out != "" {
		t.Errorf("stdout = %q", r.out)
	}
}

func TestExitProtocolErrorOutputSchema(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "bad-output"), server())...).wantCode(t, ExitProtocol)
	if !strings.Contains(r.out, "not a number") {
		t.Errorf("the result was not printed: %q", r.out)
	}
	if !strings.Contains(r.err, "bad-output") || strings.Count(r.err, "\n") != 1 {
		t.Errorf("stderr = %q", r.err)
	}
}

// Not parallel: the timeout covers the handshake too, which must not be
// starved by the other tests' children.
func TestExitTimeout(t *testing.T) {
	// The timeout covers the handshake too, so it must leave the child
	// (a race-enabled test binary) time to start; only the call is never
	// answered.
	r := run(t, args(a("call", "echo", "--arg", "message=x", "--tool-timeout", "2s"), server("never-answer:echo"))...).
		wantCode(t, ExitTimeout)
	if !strings.Contains(r.err, "timed out after 2s") || !strings.Contains(r.err, "raise --tool-timeout") || strings.Count(r.err, "\n") != 1 {
		t.Errorf("stderr = %q", r.err)
	}
	// A protocol request keeps --timeout.
	r = run(t, args(a("tools", "--timeout", "2s"), server("never-answer:tools/list"))...).wantCode(t, ExitTimeout)
	if !strings.Contains(r.err, "raise --timeout") {
		t.Errorf("stderr = %q", r.err)
	}
}

// An explicit --timeout on call caps the whole call, even one that keeps
// sending progress (which pushes only --tool-timeout's idle deadline):
// exit 6, naming --timeout. The tool would run for 30 s.
func TestCallTimeoutCapsTheWholeCall(t *testing.T) {
	r := run(t, args(a("call", "slow", "--arg", "steps=60", "--arg", "delay_ms=500", "--timeout", "3s"), server())...).wantCode(t, ExitTimeout)
	if !strings.Contains(r.err, "progress slow: 1/60") {
		t.Errorf("the tool sent no progress before the cap: %q", r.err)
	}
	if !strings.Contains(r.err, `calling tool "slow": the call ran longer than --timeout 3s`) {
		t.Errorf("stderr = %q", r.err)
	}
}

func TestExitConnectSpawnFailed(t *testing.T) {
	t.Parallel()
	r := run(t, "tools", "--", "/nonexistent/mcp-server-for-mcpwire-tests").wantCode(t, ExitConnect)
	if !strings.HasPrefix(r.err, "mcpwire: cannot connect to stdio server \"mcp-server-for-mcpwire-tests\": ") {
		t.Errorf("stderr = %q", r.err)
	}
}

func TestExitConnectChildDiedInHandshake(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("tools"), server("crash:server/discover"))...).wantCode(t, ExitConnect)
	if !strings.HasPrefix(r.err, "mcpwire: cannot connect to stdio server") {
		t.Errorf("stderr = %q", r.err)
	}
	// The server's last words are shown, though its stderr was quiet.
	if !strings.Contains(r.err, "crashing on purpose") {
		t.Errorf("stderr lacks the server's stderr tail: %q", r.err)
	}
}

func TestExitConnectChildDiedMidCall(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("call", "echo", "--arg", "message=x"), server("crash:echo"))...).wantCode(t, ExitConnect)
	if !strings.Contains(r.err, "calling tool \"echo\"") {
		t.Errorf("stderr = %q", r.err)
	}
}

func TestVerboseShowsServerStderrLive(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("tools", "--verbose"), server("crash:server/discover"))...).wantCode(t, ExitConnect)
	first := strings.Index(r.err, "crashing on purpose")
	if first < 0 || first > strings.Index(r.err, "mcpwire: cannot connect") {
		t.Errorf("--verbose did not show stderr before the error: %q", r.err)
	}
}

func TestExitUsage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		args []string
		want string
	}{
		{nil, "no command given"},
		{a("frobnicate"), `unknown command "frobnicate"`},
		{a("tols"), `unknown command "tols"; did you mean "tools"?`},
		{a("call", "echo", "--timeout", "5", "--", "srv"), "add a unit, such as 5s"},
		{a("--json"), "flags go after the command"},
		{a("tools", "--nope", "http://127.0.0.1:1/"), "unknown flag --nope"},
		{a("resources"), "no server given"},
		{a("call", "--", "srv"), "missing TOOL"},
		{a("call", "a", "b", "--", "srv"), "too many arguments"},
		{a("read", "--", "srv"), "missing URI"},
		{a("call", "echo", "--args-json", "[1]", "--", "srv"), "--args-json: want a JSON object"},
		{a("call", "echo", "--timeout", "-5s", "--", "srv"), "must not be negative"},
		{a("demo", "http://127.0.0.1:1/"), "demo takes no server"},
		{a("help", "nope"), "not a command"},
	}
	for _, c := range cases {
		r := run(t, c.args...)
		if r.code != ExitUsage {
			t.Errorf("%q: exit %d, want %d (stderr %q)", c.args, r.code, ExitUsage, r.err)
			continue
		}
		if !strings.Contains(r.err, "mcpwire: "+c.want) && !strings.Contains(r.err, c.want) {
			t.Errorf("%q: stderr = %q, want %q", c.args, r.err, c.want)
		}
		if !strings.Contains(r.err, "Run 'mcpwire help") {
			t.Errorf("%q: no pointer to help: %q", c.args, r.err)
		}
	}
}

// cancelOnWrite cancels a context when the first write containing marker
// arrives: the test's stand-in for pressing Ctrl-C once something is
// visibly in flight.
type cancelOnWrite struct {
	syncBuffer
	marker string
	cancel context.CancelFunc
	once   sync.Once
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	n, err := c.syncBuffer.Write(p)
	if strings.Contains(string(p), c.marker) {
		c.once.Do(c.cancel)
	}
	return n, err
}

func TestExitInterrupted(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	errOut := &cancelOnWrite{marker: "progress slow: 1/", cancel: cancel}
	io := &IOStreams{ErrOut: errOut}
	r := runIO(t, ctx, io, args(a("call", "slow", "--arg", "steps=100000", "--arg", "delay_ms=5"), server())...)
	if r.code != ExitInterrupted {
		t.Fatalf("exit %d, want %d; stderr %q", r.code, ExitInterrupted, errOut.String())
	}
	if !strings.HasSuffix(errOut.String(), "mcpwire: interrupted\n") {
		t.Errorf("stderr = %q", errOut.String())
	}
}
