package manager

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// These tests start real child processes (this test binary re-executed as
// mcptest's server), so they run in real time, outside synctest bubbles,
// and assert order and outcome, never speed.

// realTimeout bounds a real-time wait so that a bug fails instead of
// hanging.
const realTimeout = time.Minute

// mixedDial reaches fleet servers in process and everything else as
// configured.
func mixedDial(f *fleet) func(context.Context, *config.Server) (transport.Transport, error) {
	return func(ctx context.Context, s *config.Server) (transport.Transport, error) {
		f.mu.Lock()
		_, inProcess := f.servers[s.Name]
		f.mu.Unlock()
		if inProcess {
			return f.dial(ctx, s)
		}
		return DialWith("", nil)(ctx, s)
	}
}

// Twenty servers, twelve in process, four real stdio children and four
// over HTTP on loopback (Streamable HTTP with SSE and with JSON replies, a
// bare URL that auto-detects it, the legacy HTTP+SSE transport), all
// connect and every one answers through its model-facing name.
func TestMixedFleet(t *testing.T) {
	f := newFleet()
	defer f.close()
	httpDef := func(name, typ string, opts *mcptest.HTTPOptions) *config.Server {
		hs := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), opts)
		url := hs.URL
		if typ == config.TypeSSE {
			url = hs.SSEURL
		}
		return &config.Server{Name: name, Type: typ, URL: url, Enabled: true, Raw: []byte(`{"url":"` + url + `"}`)}
	}
	var defs []*config.Server
	for i := range 20 {
		name := fmt.Sprintf("srv%02d", i)
		switch {
		case i%5 == 0:
			defs = append(defs, stdioServer(name))
		case i == 1:
			defs = append(defs, httpDef(name, config.TypeHTTP, nil))
		case i == 2:
			defs = append(defs, httpDef(name, config.TypeHTTP, &mcptest.HTTPOptions{JSONResponse: true}))
		case i == 3:
			defs = append(defs, httpDef(name, config.TypeAuto, nil))
		case i == 4:
			defs = append(defs, httpDef(name, config.TypeSSE, nil))
		default:
			f.add(name, nil)
			defs = append(defs, pipeServer(name))
		}
	}
	m := NewServers(defs, &Options{Dial: mixedDial(f), CacheDir: t.TempDir()})
	defer m.Close()
	if _, err := m.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), realTimeout)
	defer cancel()
	snap, err := m.WaitSettled(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range snap.Servers {
		if s.State != StateConnected || s.ToolCount == 0 {
			t.Errorf("%s: %+v", s.Name, s)
		}
	}
	for _, d := range defs {
		res, err := m.CallTool(ctx, ToolName(d.Name, "echo"), map[string]any{"message": d.Name}, nil)
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if text(t, res) != d.Name {
			t.Errorf("%s answered %q", d.Name, text(t, res))
		}
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
}

// A child process that dies is restarted, and its tools come back with it.
func TestStdioServerComesBack(t *testing.T) {
	m := NewServers([]*config.Server{stdioServer("child", "crash:echo")}, &Options{DisableCache: true})
	defer m.Close()
	log := record(m)
	ctx, cancel := context.WithTimeout(t.Context(), realTimeout)
	defer cancel()
	if err := m.Connect(ctx, "child"); err != nil {
		t.Fatal(err)
	}
	tools := len(m.Tools())
	_, err := m.CallTool(ctx, "mcp__child__echo", map[string]any{"message": "die"}, nil)
	managerError(t, err, "child", nil)

	ev := log.waitFor(t, "child", Reconnecting, 1)
	var exit *transport.ExitError
	if !errors.As(ev.Err, &exit) || exit.ExitCode != mcptest.CrashExitCode {
		t.Errorf("Reconnecting does not carry the child's exit status %d: %v", mcptest.CrashExitCode, ev.Err)
	}
	log.waitFor(t, "child", Connected, 2)
	if got := len(m.Tools()); got != tools {
		t.Errorf("%d tools after the restart, want %d", got, tools)
	}
	res, err := m.CallTool(ctx, "mcp__child__add", map[string]any{"a": 2, "b": 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if text(t, res) != "5" {
		t.Errorf("add after the restart: %q", text(t, res))
	}
}

// A child that dies at every start trips the breaker.
func TestStdioCrashLoopTripsBreaker(t *testing.T) {
	// It dies at the first thing a client sends: the era probe, or
	// initialize for a client that pins the legacy era.
	m := NewServers([]*config.Server{stdioServer("loop", "crash:server/discover*", "crash:initialize*")},
		&Options{DisableCache: true, Backoff: []time.Duration{time.Millisecond}})
	defer m.Close()
	log := record(m)
	m.Start(t.Context())
	ev := log.waitFor(t, "loop", BreakerOpen, 1)
	var exit *transport.ExitError
	if !errors.As(ev.Err, &exit) || exit.ExitCode != mcptest.CrashExitCode {
		t.Errorf("BreakerOpen does not carry the child's exit: %v", ev.Err)
	}
	if n := log.count("loop", Failed); n != DefaultBreakerCrashes {
		t.Errorf("%d failures before the breaker, want %d", n, DefaultBreakerCrashes)
	}
	if st, _ := m.Server("loop"); st.State != StateBreakerOpen {
		t.Errorf("state %s", st.State)
	}
	_, err := m.CallServerTool(t.Context(), "loop", "echo", nil, nil)
	managerError(t, err, "loop", ErrBreakerOpen)
}
