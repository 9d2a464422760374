//go:build unix

package gateway

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// flaky is one upstream behind a shell wrapper: each start appends the
// process's pid to a file (exec keeps it, so the pid is the server's),
// and while the file "broken" exists the start fails at once, as a
// server whose script is broken does. Removing the file is the fix.
type flaky struct {
	starts, broken string
	notices        chan string
}

func newFlaky(t *testing.T) *flaky {
	dir := t.TempDir()
	return &flaky{starts: filepath.Join(dir, "starts"), broken: filepath.Join(dir, "broken"), notices: make(chan string, 256)}
}

// gateway runs a gateway over the flaky upstream, named "up", with a
// manager whose breaker opens after two quick failures.
func (f *flaky) gateway(t *testing.T, revive *ReviveOptions) *Gateway {
	t.Helper()
	child := server.ChildCommand()
	script := `echo $$ >> "$0"; if [ -e "$1" ]; then echo "broken on purpose" >&2; exit 1; fi; shift; exec "$@"`
	cmd := &transport.Command{Command: "/bin/sh", Args: append([]string{"-c", script, f.starts, f.broken, child.Path}, child.Args...), Env: child.Env}
	m := manager.NewServers([]*config.Server{{Name: "up", Type: config.TypeStdio, Command: "flaky", Enabled: true}}, &manager.Options{
		DisableCache: true, BreakerCrashes: 2, Backoff: []time.Duration{time.Millisecond},
		Dial: func(context.Context, *config.Server) (transport.Transport, error) { return cmd, nil },
	})
	t.Cleanup(func() { _ = m.Close() })
	if _, err := m.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.WaitSettled(t.Context()); err != nil {
		t.Fatal(err)
	}
	g, err := New(m, &Options{Revive: revive, Notice: func(s string) { f.notices <- s }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// await returns the first notice that contains want, failing the test
// when none comes within a minute (a bound for failing only).
func (f *flaky) await(t *testing.T, want string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	for {
		select {
		case n := <-f.notices:
			if strings.Contains(n, want) {
				return n
			}
		case <-ctx.Done():
			t.Fatalf("no notice with %q", want)
		}
	}
}

// pids are the upstream's starts so far.
func (f *flaky) pids(t *testing.T) []int {
	t.Helper()
	b, err := os.ReadFile(f.starts)
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, s := range strings.Fields(string(b)) {
		pid, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, pid)
	}
	return pids
}

// crash breaks the server and kills it: the manager's attempts to
// reconnect fail from then on, and its tools stay listed, as cached.
func (f *flaky) crash(t *testing.T) {
	t.Helper()
	if err := os.WriteFile(f.broken, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	pids := f.pids(t)
	if err := syscall.Kill(pids[len(pids)-1], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
}

func (f *flaky) fix(t *testing.T) {
	if err := os.Remove(f.broken); err != nil {
		t.Fatal(err)
	}
}

func readyz(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A server whose breaker opened is tried again, less often each time,
// and comes back once its cause is fixed; each step is told, and /readyz
// says 503 while the only upstream is out.
func TestBreakerOpenServerIsTriedAgainUntilItComesBack(t *testing.T) {
	f := newFlaky(t)
	g := f.gateway(t, &ReviveOptions{First: 20 * time.Millisecond, Max: 40 * time.Millisecond, CallGap: time.Hour})
	ops := httptest.NewServer(g.OpsHandler())
	defer ops.Close()
	if code := readyz(t, ops.URL); code != http.StatusOK {
		t.Errorf("/readyz with the upstream up: %d, want 200", code)
	}
	f.crash(t)
	f.await(t, `server "up" is down`)

	first := f.await(t, "stopped")
	if !strings.Contains(first, `server "up" stopped: it failed 2 times in a row`) || !strings.Contains(first, "broken on purpose") ||
		!strings.Contains(first, "tries it again in 20ms") {
		t.Errorf("first breaker notice: %s", first)
	}
	if code := readyz(t, ops.URL); code != http.StatusServiceUnavailable {
		t.Errorf("/readyz with the only upstream out: %d, want 503", code)
	}
	// The gateway's try fails twice more (the manager's own attempts after
	// Connect), the breaker opens again, and the next wait doubles to Max,
	// where it stays; further openings for the same reason are not told
	// again (TestStoppedServerIsNotToldEveryMax).
	if second := f.await(t, "stopped"); !strings.Contains(second, "tries it again every 40ms") {
		t.Errorf("second breaker notice: %s", second)
	}
	before := len(f.pids(t))
	f.fix(t)
	if back := f.await(t, "is back"); !strings.Contains(back, `server "up" is back: connected`) {
		t.Errorf("back notice: %s", back)
	}
	if n := len(f.pids(t)); n <= before {
		t.Errorf("no start after the fix: %d starts, %d before", n, before)
	}
	if code := readyz(t, ops.URL); code != http.StatusOK {
		t.Errorf("/readyz with the upstream back: %d, want 200", code)
	}
	res, err := host(t, g, nil).CallTool(t.Context(), "up__echo", map[string]any{"message": "back"}, nil)
	if err != nil || res.IsError {
		t.Fatalf("call after the server came back: %v %+v", err, res)
	}
}

// A host's call to a server whose breaker is open tries it at once when
// no try started within CallGap, and is made on the new connection; a
// call within CallGap fails at once, saying when the next try is, and
// starts no process.
func TestCallTriesAServerWhoseBreakerOpened(t *testing.T) {
	f := newFlaky(t)
	g := f.gateway(t, &ReviveOptions{First: time.Hour, CallGap: time.Hour})
	f.crash(t)
	f.await(t, "stopped")
	c := host(t, g, nil)
	starts := len(f.pids(t))
	for range 3 {
		res, err := c.CallTool(t.Context(), "up__echo", map[string]any{"message": "x"}, nil)
		if err != nil || !res.IsError {
			t.Fatalf("call while the breaker is open: %v %+v", err, res)
		}
		if text := resultText(res); !strings.Contains(text, `mcp server "up"`) || !strings.Contains(text, "failed 2 times in a row") ||
			!strings.Contains(text, "the gateway tries it again in 1h0m0s") || strings.Contains(text, "Connect retries") {
			t.Errorf("the host's error: %s", text)
		}
	}
	if n := len(f.pids(t)); n != starts {
		t.Errorf("calls within CallGap started the server %d times", n-starts)
	}

	// Once the gap has passed, the next call tries the server itself.
	g.revive.mu.Lock()
	g.revive.opts.CallGap = time.Nanosecond
	g.revive.mu.Unlock()
	f.fix(t)
	res, err := c.CallTool(t.Context(), "up__echo", map[string]any{"message": "fixed"}, nil)
	if err != nil || res.IsError || resultText(res) != "fixed" {
		t.Fatalf("call after the fix: %v %+v", err, res)
	}
	if n := len(f.pids(t)); n != starts+1 {
		t.Errorf("the call started the server %d times, want once", n-starts)
	}
	f.await(t, "is back")
}

// A server that dies is told as down, then as back once the manager
// reconnected it.
func TestUpstreamDownAndBackAreTold(t *testing.T) {
	f := newFlaky(t)
	f.gateway(t, nil)
	if err := syscall.Kill(f.pids(t)[0], syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if down := f.await(t, "is down"); !strings.Contains(down, `server "up" is down: `) || !strings.Contains(down, "reconnects it in") {
		t.Errorf("down notice: %s", down)
	}
	f.await(t, `server "up" is back`)
}

// resultText is the text of a result's content.
func resultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, c.Text)
	}
	return strings.Join(parts, " ")
}
