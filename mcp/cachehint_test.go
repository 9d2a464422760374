package mcp

import (
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcptest"
)

// Lists and reads of a modern server carry ttlMs and cacheScope, and a
// listing over several pages takes the shortest TTL and narrowest scope.
func TestModernCacheHints(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly, PageSize: 2})
	srv.SetCacheHint("tools/list", mcptest.CacheHint{TTLMillis: 90_000, Scope: "public"})
	srv.SetCacheHint("resources/read", mcptest.CacheHint{TTLMillis: 5, Scope: "private"})
	c, _ := connectMCPTest(t, srv, modernPin)
	tools, hint, err := c.ListToolsWithHint(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) <= 2 {
		t.Fatalf("%d tools: the listing should span pages", len(tools))
	}
	if hint.TTL() != 90*time.Second || hint.CacheScope != CacheScopePublic || hint.Private() {
		t.Errorf("tools hint %+v (TTL %v)", hint, hint.TTL())
	}
	page, err := c.ListToolsPage(t.Context(), "")
	if err != nil || page.TTLMs == nil || *page.TTLMs != 90_000 {
		t.Errorf("page hint %+v, %v", page, err)
	}
	res, err := c.ReadResource(t.Context(), mcptest.HelloURI)
	if err != nil {
		t.Fatal(err)
	}
	if res.TTL() != 5*time.Millisecond || !res.Private() {
		t.Errorf("read hint %+v", res.CacheHint)
	}
	// Legacy results carry none.
	legacy, _ := connectMCPTest(t, mcptest.NewDefault(nil), &ClientOptions{})
	if _, hint, err := legacy.ListToolsWithHint(t.Context()); err != nil || hint.TTLMs != nil || hint.CacheScope != "" {
		t.Errorf("legacy hint %+v, %v", hint, err)
	}
}

func TestCacheHintMerge(t *testing.T) {
	ms := func(v int64) *int64 { return &v }
	pages := []CacheHint{{TTLMs: ms(500), CacheScope: "public"}, {TTLMs: ms(200), CacheScope: "private"}, {TTLMs: ms(900), CacheScope: "public"}}
	var h CacheHint
	for i, p := range pages {
		h = h.merge(p, i == 0)
	}
	if h.TTL() != 200*time.Millisecond || h.CacheScope != "private" {
		t.Errorf("merged %+v", h)
	}
	h = h.merge(CacheHint{}, false)
	if h.TTLMs != nil || h.TTL() != 0 || !h.Private() {
		t.Errorf("a page without hints must leave none: %+v", h)
	}
	if (CacheHint{TTLMs: ms(-5)}).TTL() != 0 {
		t.Error("a negative ttlMs must count as 0")
	}
}
