package mcp

import "context"

// ListPromptsWithHint is ListPrompts that also returns the listing's
// caching hint, merged over its pages as ListToolsWithHint does.
func (c *Client) ListPromptsWithHint(ctx context.Context) ([]Prompt, CacheHint, error) {
	return listAllWithHint(ctx, MethodPromptsList, func(ctx context.Context, cursor string) ([]Prompt, string, CacheHint, error) {
		page, err := c.ListPromptsPage(ctx, cursor)
		if err != nil {
			return nil, "", CacheHint{}, err
		}
		return page.Prompts, page.NextCursor, page.CacheHint, nil
	})
}

// ListResourcesWithHint is ListResources that also returns the listing's
// caching hint, merged over its pages as ListToolsWithHint does.
func (c *Client) ListResourcesWithHint(ctx context.Context) ([]Resource, CacheHint, error) {
	return listAllWithHint(ctx, MethodResourcesList, func(ctx context.Context, cursor string) ([]Resource, string, CacheHint, error) {
		page, err := c.ListResourcesPage(ctx, cursor)
		if err != nil {
			return nil, "", CacheHint{}, err
		}
		return page.Resources, page.NextCursor, page.CacheHint, nil
	})
}

// listAllWithHint is listAll that also merges the pages' caching hints.
func listAllWithHint[T any](ctx context.Context, method string, page func(ctx context.Context, cursor string) ([]T, string, CacheHint, error)) ([]T, CacheHint, error) {
	var hint CacheHint
	first := true
	items, err := listAll(ctx, method, func(ctx context.Context, cursor string) ([]T, string, error) {
		got, next, h, err := page(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		hint, first = hint.merge(h, first), false
		return got, next, nil
	})
	if err != nil {
		return nil, CacheHint{}, err
	}
	return items, hint, nil
}
