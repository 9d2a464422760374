package manager

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/mcptest"
)

func listings(srv *mcptest.Server, method string) int {
	n := 0
	for _, r := range srv.ModernRequests() {
		if r.Method == method {
			n++
		}
	}
	return n
}

// Prompt and resource lists with a positive ttlMs are listed again (once)
// when the host asks for that kind of list after the TTL; using the tools
// does not list them, and a refresh that finds the same list is no
// change.
func TestPromptAndResourceListTTL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		const ttl = time.Minute
		m, srv, log := modernFleetServer(t, f, map[string]mcptest.CacheHint{
			"prompts/list":   {TTLMillis: ttl.Milliseconds(), Scope: "public"},
			"resources/list": {TTLMillis: 2 * ttl.Milliseconds(), Scope: "private"},
		})
		defer m.Close()
		synctest.Wait()
		prompts, resources := listings(srv, "prompts/list"), listings(srv, "resources/list")
		if prompts == 0 || resources == 0 || len(m.Prompts()) == 0 || len(m.Resources()) == 0 {
			t.Fatalf("after connecting: %d prompt and %d resource listings, %d prompts, %d resources",
				prompts, resources, len(m.Prompts()), len(m.Resources()))
		}
		settle := func() {
			time.Sleep(DefaultRefreshMaxWait)
			synctest.Wait()
		}
		want := func(when string, p, r int) {
			t.Helper()
			if gp, gr := listings(srv, "prompts/list"), listings(srv, "resources/list"); gp != p || gr != r {
				t.Errorf("%s: %d prompt and %d resource listings, want %d and %d", when, gp, gr, p, r)
			}
		}

		time.Sleep(ttl + time.Second) // prompts stale, resources fresh
		m.Tools()
		settle()
		want("using the tools", prompts, resources)
		for range 3 {
			m.Prompts()
			m.Resources()
		}
		settle()
		want("prompts stale", prompts+1, resources)
		m.Prompts() // fresh again
		settle()
		want("prompts just listed", prompts+1, resources)

		time.Sleep(ttl) // resources stale too
		m.Resources()
		settle()
		want("resources stale", prompts+1, resources+1)
		if n := log.count("a", PromptsChanged) + log.count("a", ResourcesChanged); n != 0 {
			t.Errorf("%d change events for refreshes that found the same lists", n)
		}
	})
}

// Prompt and resource lists without a ttlMs are left to list_changed.
func TestPromptAndResourceListTTLZero(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		m, srv, _ := modernFleetServer(t, f, nil)
		defer m.Close()
		synctest.Wait()
		prompts, resources := listings(srv, "prompts/list"), listings(srv, "resources/list")
		time.Sleep(time.Hour)
		m.Prompts()
		m.Resources()
		time.Sleep(DefaultRefreshMaxWait)
		synctest.Wait()
		if gp, gr := listings(srv, "prompts/list"), listings(srv, "resources/list"); gp != prompts || gr != resources {
			t.Errorf("%d prompt and %d resource listings, want %d and %d", gp, gr, prompts, resources)
		}
	})
}
