package manager

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
)

// Twenty servers whose connects take 0, 100, …, 1900 ms of virtual time:
// Start returns at the 250 ms gate with the three that made it, and all
// twenty are up when the slowest is, not after the sum of their delays.
func TestStartConnectsInParallel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		var defs []*config.Server
		for i := range 20 {
			name := fmt.Sprintf("s%02d", i)
			f.add(name, nil)
			f.set(func(f *fleet) { f.delay[name] = time.Duration(i) * 100 * time.Millisecond })
			defs = append(defs, pipeServer(name))
		}
		m := NewServers(defs, &Options{Dial: f.dial, CacheDir: t.TempDir()})
		defer m.Close()

		start := time.Now()
		snap, err := m.Start(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if got := time.Since(start); got != DefaultStartupGate {
			t.Errorf("Start returned after %v, want the %v gate", got, DefaultStartupGate)
		}
		connected := 0
		for _, s := range snap.Servers {
			switch s.State {
			case StateConnected:
				connected++
			case StateConnecting:
			default:
				t.Errorf("server %s: state %s at the gate", s.Name, s.State)
			}
		}
		if connected != 3 {
			t.Errorf("%d servers connected at the gate, want 3 (delays 0, 100, 200 ms)", connected)
		}

		snap, err = m.WaitSettled(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if got := time.Since(start); got != 1900*time.Millisecond {
			t.Errorf("all servers settled after %v, want 1.9s (the slowest); sequential would take 19s", got)
		}
		for _, s := range snap.Servers {
			if s.State != StateConnected || s.ToolCount == 0 || s.ToolsCached {
				t.Errorf("server %s: %+v", s.Name, s)
			}
		}
		perServer := len(snap.Tools) / 20
		if perServer == 0 || len(snap.Tools)%20 != 0 {
			t.Fatalf("%d tools for 20 identical servers", len(snap.Tools))
		}
		for _, name := range []string{"s00", "s07", "s19"} {
			res, err := m.CallTool(t.Context(), "mcp__"+name+"__echo", map[string]any{"message": "hi " + name}, nil)
			if err != nil {
				t.Fatalf("calling %s's echo: %v", name, err)
			}
			if got := text(t, res); got != "hi "+name {
				t.Errorf("%s echo: %q", name, got)
			}
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
