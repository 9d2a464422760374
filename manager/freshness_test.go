package manager

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// modernFleetServer is a modern-only mcptest server whose answers carry
// hints (by method), behind a manager pinned to the modern era.
func modernFleetServer(t *testing.T, f *fleet, hints map[string]mcptest.CacheHint) (*Manager, *mcptest.Server, *eventLog) {
	srv := f.add("a", mcptest.NewDefault(&mcptest.Options{Name: "a", Eras: mcptest.ModernOnly}))
	for method, hint := range hints {
		srv.SetCacheHint(method, hint)
	}
	m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, CacheDir: t.TempDir(),
		Client: &mcp.ClientOptions{ProtocolVersion: mcp.ModernProtocolVersion}})
	log := record(m)
	m.Start(t.Context())
	log.waitFor(t, "a", Connected, 1)
	return m, srv, log
}

// A tool list with a positive ttlMs is served as is while fresh, and
// listed again (once) when the manager needs it after the TTL.
func TestToolListTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		const ttl = time.Minute
		m, srv, _ := modernFleetServer(t, f, map[string]mcptest.CacheHint{"tools/list": {TTLMillis: ttl.Milliseconds(), Scope: "public"}})
		defer m.Close()
		start := time.Now()
		synctest.Wait()
		base := listings(srv, "tools/list")
		if base == 0 {
			t.Fatal("the tools were never listed")
		}

		time.Sleep(ttl - time.Since(start) - time.Second)
		m.Tools()
		time.Sleep(DefaultRefreshMaxWait)
		synctest.Wait()
		if n := listings(srv, "tools/list"); n != base {
			t.Fatalf("%d listings while the list was fresh, want %d", n, base)
		}

		time.Sleep(time.Second)
		for range 5 {
			m.Tools() // stale now: the first use asks once
		}
		time.Sleep(DefaultRefreshMaxWait)
		synctest.Wait()
		if n := listings(srv, "tools/list"); n != base+1 {
			t.Fatalf("%d listings after the TTL passed, want %d", n, base+1)
		}
		m.Tools() // fresh again
		time.Sleep(DefaultRefreshMaxWait)
		synctest.Wait()
		if n := listings(srv, "tools/list"); n != base+1 {
			t.Errorf("%d listings right after a refresh, want %d", n, base+1)
		}
	})
}

// ttlMs 0 (and no hint) leaves the list to list_changed: using the tools
// lists nothing again, however late.
func TestToolListTTLZero(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		m, srv, _ := modernFleetServer(t, f, nil)
		defer m.Close()
		synctest.Wait()
		base := listings(srv, "tools/list")
		time.Sleep(time.Hour)
		m.Tools()
		time.Sleep(DefaultRefreshMaxWait)
		synctest.Wait()
		if n := listings(srv, "tools/list"); n != base {
			t.Errorf("%d listings, want %d", n, base)
		}
	})
}

// In the modern era the manager opts in to list_changed through
// subscriptions/listen, so a tool the server adds shows up.
func TestModernToolsListChanged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		m, srv, log := modernFleetServer(t, f, nil)
		defer m.Close()
		synctest.Wait()
		before := log.count("a", ToolsChanged)
		srv.AddTool(mcptest.Tool{Name: "late"}, echoHandler)
		log.waitFor(t, "a", ToolsChanged, before+1)
		if !hasTool(m.Tools(), "mcp__a__late") {
			t.Errorf("the added tool is missing: %v", m.Tools())
		}
	})
}

// A remote server's tool list declared "private" is not kept on disk (an
// older file goes), while a "public" one and a local process's private one
// are.
func TestToolCacheScope(t *testing.T) {
	for _, tc := range []struct {
		name   string
		remote bool
		scope  string
		kept   bool
	}{
		{"remote private", true, "private", false},
		{"remote public", true, "public", true},
		{"local private", false, "private", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFleet()
				defer f.close()
				f.add("a", mcptest.NewDefault(&mcptest.Options{Name: "a", Eras: mcptest.ModernOnly})).
					SetCacheHint("tools/list", mcptest.CacheHint{Scope: tc.scope})
				def := pipeServer("a")
				if tc.remote {
					def.Type, def.Command, def.URL = config.TypeHTTP, "", "http://in-process/mcp"
				}
				dir := t.TempDir()
				cache := &toolCache{dir: dir, ttl: time.Hour}
				key := cacheKey(def)
				if err := cache.save(key, "a", []mcp.Tool{{Name: "old"}}, time.Now()); err != nil {
					t.Fatal(err)
				}
				m := NewServers([]*config.Server{def}, &Options{Dial: f.dial, CacheDir: dir,
					Client: &mcp.ClientOptions{ProtocolVersion: mcp.ModernProtocolVersion}})
				defer m.Close()
				log := record(m)
				m.Start(t.Context())
				log.waitFor(t, "a", Connected, 1)
				tools, _, ok, warn := cache.load(key, "a", time.Now())
				if warn != nil {
					t.Fatal(warn)
				}
				if ok != tc.kept {
					t.Fatalf("cache file present = %v, want %v", ok, tc.kept)
				}
				if ok && (len(tools) < 2 || tools[0].Name == "old") {
					t.Errorf("the cache holds %d tools, not the live list", len(tools))
				}
			})
		})
	}
}
