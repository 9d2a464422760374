package mcp

import (
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcptest"
)

// The prompt and resource listings carry their hints too, over pages.
func TestModernCacheHintsOfPromptsAndResources(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly, PageSize: 1})
	srv.SetCacheHint("prompts/list", mcptest.CacheHint{TTLMillis: 30_000, Scope: "public"})
	srv.SetCacheHint("resources/list", mcptest.CacheHint{TTLMillis: 7_000, Scope: "private"})
	c, _ := connectMCPTest(t, srv, modernPin)
	prompts, hint, err := c.ListPromptsWithHint(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts) < 2 {
		t.Fatalf("%d prompts: the listing should span pages", len(prompts))
	}
	if hint.TTL() != 30*time.Second || hint.Private() {
		t.Errorf("prompts hint %+v (TTL %v)", hint, hint.TTL())
	}
	resources, hint, err := c.ListResourcesWithHint(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(resources) < 2 {
		t.Fatalf("%d resources: the listing should span pages", len(resources))
	}
	if hint.TTL() != 7*time.Second || !hint.Private() || hint.CacheScope != CacheScopePrivate {
		t.Errorf("resources hint %+v (TTL %v)", hint, hint.TTL())
	}
	legacy, _ := connectMCPTest(t, mcptest.NewDefault(nil), &ClientOptions{})
	if _, hint, err := legacy.ListPromptsWithHint(t.Context()); err != nil || hint.TTLMs != nil || hint.CacheScope != "" {
		t.Errorf("legacy prompts hint %+v, %v", hint, err)
	}
	if _, hint, err := legacy.ListResourcesWithHint(t.Context()); err != nil || hint.TTLMs != nil || hint.CacheScope != "" {
		t.Errorf("legacy resources hint %+v, %v", hint, err)
	}
}
