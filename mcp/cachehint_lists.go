package mcp

import "context"

// ListPromptsWithHint is ListPrompts that also returns the listing's
// caching hint, merged over its pages as ListToolsWithHint does.
func (c *Client) ListPromptsWithHint(ctx context.Context) ([]Prompt, CacheHint, error) {
	var hint CacheHint
	first := true
	prompts, err := listAll(ctx, MethodPromptsList, func(ctx context.Context, cursor string) ([]Prompt, string, error) {
		page, err := c.ListPromptsPage(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		hint, first = hint.merge(page.CacheHint, first), false
		return page.Prompts, page.NextCursor, nil
	})
	if err != nil {
		return nil, CacheHint{}, err
	}
	return prompts, hint, nil
}

// ListResourcesWithHint is ListResources that also returns the listing's
// caching hint, merged over its pages as ListToolsWithHint does.
func (c *Client) ListResourcesWithHint(ctx context.Context) ([]Resource, CacheHint, error) {
	var hint CacheHint
	first := true
	resources, err := listAll(ctx, MethodResourcesList, func(ctx context.Context, cursor string) ([]Resource, string, error) {
		page, err := c.ListResourcesPage(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		hint, first = hint.merge(page.CacheHint, first), false
		return page.Resources, page.NextCursor, nil
	})
	if err != nil {
		return nil, CacheHint{}, err
	}
	return resources, hint, nil
}
