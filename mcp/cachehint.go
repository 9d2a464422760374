package mcp

import (
	"context"
	"time"
)

// Cache scopes of CacheHint.
const (
	// CacheScopePublic: the result holds nothing of the user and may be
	// shared with other users.
	CacheScopePublic = "public"
	// CacheScopePrivate: the result may be reused only under the same
	// authorization (another access token needs another cache).
	CacheScopePrivate = "private"
)

// CacheHint is what a result of the 2026-07-28 revision says about caching
// it: server/discover, the lists and resources/read carry one. Older
// servers send none (a zero CacheHint).
type CacheHint struct {
	// TTLMs is how long, in milliseconds from its arrival, the result may
	// be taken as fresh; nil when the server did not say.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope is CacheScopePublic or CacheScopePrivate; empty when the
	// server did not say.
	CacheScope string `json:"cacheScope,omitempty"`
}

// TTL is TTLMs as a duration; an absent or negative ttlMs is 0, which the
// revision says means stale at once.
func (h CacheHint) TTL() time.Duration {
	if h.TTLMs == nil || *h.TTLMs <= 0 {
		return 0
	}
	return time.Duration(min(*h.TTLMs, int64(time.Duration(1<<62)/time.Millisecond))) * time.Millisecond
}

// Private reports whether the result may not be shared across
// authorization contexts: a "private" scope, and also an absent or unknown
// one, as the safe reading.
func (h CacheHint) Private() bool { return h.CacheScope != CacheScopePublic }

// merge combines the hints of the pages of one listing: the shortest TTL
// (a page without one makes the listing have none) and the narrowest
// scope.
func (h CacheHint) merge(page CacheHint, first bool) CacheHint {
	if first {
		return page
	}
	if h.TTLMs != nil && (page.TTLMs == nil || *page.TTLMs < *h.TTLMs) {
		h.TTLMs = page.TTLMs
	}
	if page.Private() {
		h.CacheScope = page.CacheScope
	}
	return h
}

// ListToolsWithHint is ListTools that also returns the listing's caching
// hint: the shortest ttlMs of its pages (nil if a page had none) and the
// narrowest cacheScope. A zero hint means the server gave none (all
// servers before 2026-07-28).
func (c *Client) ListToolsWithHint(ctx context.Context) ([]Tool, CacheHint, error) {
	tools, hint, err := listAllWithHint(ctx, MethodToolsList, func(ctx context.Context, cursor string) ([]Tool, string, CacheHint, error) {
		page, err := c.ListToolsPage(ctx, cursor)
		if err != nil {
			return nil, "", CacheHint{}, err
		}
		return page.Tools, page.NextCursor, page.CacheHint, nil
	})
	if err != nil {
		return nil, CacheHint{}, err
	}
	c.tools.Load().retain(tools)
	return tools, hint, nil
}
