package manager

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
)

// A slow server's cached tools stand in for it at the gate; a call on one
// waits for the server and then goes through.
func TestGateServesCachedToolsOfSlowServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cacheDir := t.TempDir()
		f := newFleet()
		defer f.close()
		f.add("fast", nil)
		f.add("slow", nil)
		defs := []*config.Server{pipeServer("fast"), pipeServer("slow")}

		// A first run fills the cache.
		m := NewServers(defs, &Options{Dial: f.dial, CacheDir: cacheDir})
		if _, err := m.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		if _, err := m.WaitSettled(t.Context()); err != nil {
			t.Fatal(err)
		}
		want := len(m.Tools())
		m.Close()

		// The second run finds the slow server slow.
		f.set(func(f *fleet) { f.delay["slow"] = 2 * time.Second })
		m = NewServers(defs, &Options{Dial: f.dial, CacheDir: cacheDir})
		defer m.Close()
		log := record(m)
		start := time.Now()
		snap, err := m.Start(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if time.Since(start) != DefaultStartupGate {
			t.Errorf("Start took %v", time.Since(start))
		}
		if len(snap.Tools) != want {
			t.Errorf("%d tools at the gate, want %d (live + cached)", len(snap.Tools), want)
		}
		for _, e := range snap.Tools {
			if e.Cached != (e.Server == "slow") {
				t.Errorf("tool %s: Cached = %v", e.Name, e.Cached)
			}
		}
		if st := snap.Server("slow"); st.State != StateConnecting || !st.ToolsCached {
			t.Errorf("slow server at the gate: %+v", st)
		}
		if st := snap.Server("fast"); st.State != StateConnected || st.ToolsCached {
			t.Errorf("fast server at the gate: %+v", st)
		}

		res, err := m.CallTool(t.Context(), "mcp__slow__echo", map[string]any{"message": "waited"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if text(t, res) != "waited" {
			t.Errorf("echo: %q", text(t, res))
		}
		if got := time.Since(start); got != 2*time.Second {
			t.Errorf("the call on a cached tool returned after %v, want when the server connected (2s)", got)
		}
		for _, e := range m.Tools() {
			if e.Cached {
				t.Errorf("tool %s still cached after its server connected", e.Name)
			}
		}
		// Cached → live, same tools: one ToolsChanged for the Cached flag.
		log.waitFor(t, "slow", Connected, 1)
		if n := log.count("slow", Warning); n != 0 {
			t.Errorf("warnings: %s", log)
		}
	})
}

// A call on a cached tool is bounded by its ctx when the server is slower.
func TestCachedToolCallBoundedByContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cacheDir := t.TempDir()
		f := newFleet()
		defer f.close()
		f.add("slow", nil)
		def := pipeServer("slow")
		m := NewServers([]*config.Server{def}, &Options{Dial: f.dial, CacheDir: cacheDir})
		m.Start(t.Context())
		m.WaitSettled(t.Context())
		m.Close()

		f.set(func(f *fleet) { f.delay["slow"] = time.Minute })
		m = NewServers([]*config.Server{def}, &Options{Dial: f.dial, CacheDir: cacheDir, ReconnectWait: time.Hour})
		defer m.Close()
		m.Start(t.Context())
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		defer cancel()
		start := time.Now()
		_, err := m.CallTool(ctx, "mcp__slow__echo", map[string]any{"message": "x"}, nil)
		managerError(t, err, "slow", context.DeadlineExceeded)
		if time.Since(start) != 3*time.Second {
			t.Errorf("gave up after %v, want the ctx's 3s", time.Since(start))
		}
		// ReconnectWait bounds it too, and so does the call's Timeout.
		start = time.Now()
		_, err = m.CallServerTool(t.Context(), "slow", "echo", map[string]any{"message": "x"}, &mcpCallTimeout2s)
		managerError(t, err, "slow", ErrNotReady)
		if time.Since(start) != 2*time.Second {
			t.Errorf("gave up after %v, want the call's 2s timeout", time.Since(start))
		}
	})
}

// A server with neither cache nor connection yet: a call by its name
// waits for its first attempt, then finds the tool.
func TestUnknownNameWaitsForFirstAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("late", nil)
		f.set(func(f *fleet) { f.delay["late"] = time.Second })
		m := NewServers([]*config.Server{pipeServer("late")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		snap, _ := m.Start(t.Context())
		if len(snap.Tools) != 0 {
			t.Fatalf("tools before the server connected, without a cache: %v", toolNames(snap.Tools))
		}
		res, err := m.CallTool(t.Context(), "mcp__late__echo", map[string]any{"message": "found"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if text(t, res) != "found" {
			t.Errorf("echo: %q", text(t, res))
		}
		// Once every server settled, an unknown name fails at once.
		start := time.Now()
		_, err = m.CallTool(t.Context(), "mcp__late__nope", nil, nil)
		managerError(t, err, "", ErrUnknownTool)
		if time.Since(start) != 0 {
			t.Errorf("unknown tool took %v", time.Since(start))
		}
	})
}
