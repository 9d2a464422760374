package mcp

import (
	"context"
	"errors"
	"fmt"
)

// Ping checks that the server answers. The modern era has no ping: there
// it sends server/discover.
func (c *Client) Ping(ctx context.Context) error {
	if c.modern != nil {
		return c.call(ctx, MethodServerDiscover, nil, nil, nil)
	}
	return c.call(ctx, MethodPing, nil, nil, nil)
}

// ListResources returns every resource, following nextCursor to the end.
func (c *Client) ListResources(ctx context.Context) ([]Resource, error) {
	return listAll(ctx, MethodResourcesList, func(ctx context.Context, cursor string) ([]Resource, string, error) {
		page, err := c.ListResourcesPage(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		return page.Resources, page.NextCursor, nil
	})
}

// ListResourcesPage fetches one page of resources/list ("" for the first).
func (c *Client) ListResourcesPage(ctx context.Context, cursor string) (*ListResourcesResult, error) {
	var res ListResourcesResult
	if err := c.call(ctx, MethodResourcesList, cursorParams(cursor), nil, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ListResourceTemplates returns every resource template, following
// nextCursor to the end.
func (c *Client) ListResourceTemplates(ctx context.Context) ([]ResourceTemplate, error) {
	return listAll(ctx, MethodResourceTemplatesList, func(ctx context.Context, cursor string) ([]ResourceTemplate, string, error) {
		page, err := c.ListResourceTemplatesPage(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		return page.ResourceTemplates, page.NextCursor, nil
	})
}

// ListResourceTemplatesPage fetches one page of resources/templates/list.
func (c *Client) ListResourceTemplatesPage(ctx context.Context, cursor string) (*ListResourceTemplatesResult, error) {
	var res ListResourceTemplatesResult
	if err := c.call(ctx, MethodResourceTemplatesList, cursorParams(cursor), nil, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// ReadResource reads the resource at uri. A missing resource comes back as
// a *jsonrpc.Error with code -32002 or, from newer servers, -32602.
func (c *Client) ReadResource(ctx context.Context, uri string) (*ReadResourceResult, error) {
	if uri == "" {
		return nil, errors.New("mcp: resources/read: the URI is empty")
	}
	var res ReadResourceResult
	if err := c.call(ctx, MethodResourcesRead, uriParams{uri}, nil, &res); err != nil {
		return nil, c.resourceNotFound(uri, err)
	}
	return &res, nil
}

// SubscribeResource asks for notifications/resources/updated about uri
// (servers that declare resources.subscribe; with any other it fails with
// ErrUnsupported, in every era, before anything is sent). Receive them with
// ClientOptions.OnResourceUpdated. The client remembers the subscription
// and makes it again on a renewed session (see SessionState). In the
// modern era it adds uri to the client's subscriptions/listen, which it
// opens again with the new set, and returns once the server acknowledged
// it (or after 5 s without an acknowledgement).
func (c *Client) SubscribeResource(ctx context.Context, uri string) error {
	if uri == "" {
		return errors.New("mcp: resources/subscribe: the URI is empty")
	}
	if err := c.offered(MethodResourcesSubscribe); err != nil {
		return err
	}
	if c.modern != nil {
		c.setUp().subscribed(uri)
		// The modern era subscribes through subscriptions/listen.
		c.awaitListen(ctx, c.relisten())
		return nil
	}
	if err := c.call(ctx, MethodResourcesSubscribe, uriParams{uri}, nil, nil); err != nil {
		return err
	}
	c.setUp().subscribed(uri)
	return nil
}

// UnsubscribeResource cancels SubscribeResource. The client forgets the
// subscription even when the request fails, so a renewal does not bring
// it back.
func (c *Client) UnsubscribeResource(ctx context.Context, uri string) error {
	if uri == "" {
		return errors.New("mcp: resources/unsubscribe: the URI is empty")
	}
	if err := c.offered(MethodResourcesUnsubscribe); err != nil {
		return err
	}
	c.setUp().unsubscribed(uri)
	if c.modern != nil {
		c.awaitListen(ctx, c.relisten())
		return nil
	}
	return c.call(ctx, MethodResourcesUnsubscribe, uriParams{uri}, nil, nil)
}

// ListPrompts returns every prompt, following nextCursor to the end.
func (c *Client) ListPrompts(ctx context.Context) ([]Prompt, error) {
	return listAll(ctx, MethodPromptsList, func(ctx context.Context, cursor string) ([]Prompt, string, error) {
		page, err := c.ListPromptsPage(ctx, cursor)
		if err != nil {
			return nil, "", err
		}
		return page.Prompts, page.NextCursor, nil
	})
}

// ListPromptsPage fetches one page of prompts/list ("" for the first).
func (c *Client) ListPromptsPage(ctx context.Context, cursor string) (*ListPromptsResult, error) {
	var res ListPromptsResult
	if err := c.call(ctx, MethodPromptsList, cursorParams(cursor), nil, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// GetPrompt renders the named prompt with args.
func (c *Client) GetPrompt(ctx context.Context, name string, args map[string]string) (*GetPromptResult, error) {
	if name == "" {
		return nil, errors.New("mcp: prompts/get: the prompt name is empty")
	}
	var res GetPromptResult
	if err := c.call(ctx, MethodPromptsGet, getPromptParams{Name: name, Arguments: args}, nil, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Complete asks for completions of arg. given holds the values of
// arguments already given; it is sent (as context.arguments) only to
// servers of 2025-06-18 or newer, the revision that introduced it.
func (c *Client) Complete(ctx context.Context, ref CompletionRef, arg CompletionArgument, given map[string]string) (*CompletionResult, error) {
	if ref.Type == "" {
		return nil, fmt.Errorf("mcp: completion/complete: the ref has no type (want %q or %q)", RefPrompt, RefResource)
	}
	p := completeParams{Ref: ref, Argument: arg}
	if len(given) > 0 && versionAtLeast(c.ProtocolVersion(), "2025-06-18") {
		p.Context = &completeContext{Arguments: given}
	}
	var res completeResult
	if err := c.call(ctx, MethodCompletionComplete, p, nil, &res); err != nil {
		return nil, err
	}
	if res.Completion == nil {
		return nil, errors.New(`mcp: completion/complete: the result has no "completion"`)
	}
	return res.Completion, nil
}

// SetLogLevel asks the server to send notifications/message at level and
// above (servers that declare logging; with any other it fails with
// ErrUnsupported). The client remembers the level
// and asks for it again on a renewed session (see SessionState). In the
// modern era, which has no logging/setLevel, the level travels in the
// _meta of every later request instead.
func (c *Client) SetLogLevel(ctx context.Context, level LoggingLevel) error {
	if level.Severity() < 0 {
		return fmt.Errorf("mcp: logging/setLevel: unknown level %q (want one of debug, info, notice, warning, error, critical, alert, emergency)", level)
	}
	if err := c.offered(MethodLoggingSetLevel); err != nil {
		return err
	}
	if c.modern != nil {
		if err := c.modern.setLogLevel(level); err != nil {
			return err
		}
		c.setUp().leveled(level)
		return nil
	}
	if err := c.call(ctx, MethodLoggingSetLevel, setLevelParams{level}, nil, nil); err != nil {
		return err
	}
	c.setUp().leveled(level)
	return nil
}
