package cli

import (
	"context"
	"errors"
	"slices"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// When the server refuses a prompt or a resource by name, the name may be
// a typo. These look the name up in the server's lists, after the
// refusal (so a name that is right costs no extra request), and add the
// nearest names, as an unknown tool or server gets.

// unknownPrompt is the usage error for a prompt the server does not list,
// with the nearest names; nil when err is not a refusal or the server
// lists the prompt (then its refusal stands).
func unknownPrompt(ctx context.Context, c *mcp.Client, name string, err error) error {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || c.ServerCapabilities().Prompts == nil {
		return nil
	}
	list, lerr := c.ListPrompts(ctx)
	if lerr != nil {
		return nil
	}
	names := make([]string, len(list))
	for i, p := range list {
		names[i] = p.Name
	}
	if slices.Contains(names, name) {
		return nil
	}
	return Usagef("the server has no prompt %q%s (\"mcpwire prompts\" lists them)", name, didYouMean(name, names))
}

// nearResources is "; did you mean ..." naming the listed resources (and
// templates) nearest to a URI the server refused, or "".
func nearResources(ctx context.Context, c *mcp.Client, uri string, err error) string {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || c.ServerCapabilities().Resources == nil {
		return ""
	}
	var uris []string
	if list, err := c.ListResources(ctx); err == nil {
		for _, r := range list {
			uris = append(uris, r.URI)
		}
	}
	if templates, err := c.ListResourceTemplates(ctx); err == nil {
		for _, r := range templates {
			uris = append(uris, r.URITemplate)
		}
	}
	if slices.Contains(uris, uri) {
		return ""
	}
	if near := didYouMean(uri, uris); near != "" {
		return near + ` ("mcpwire resources" lists them)`
	}
	return ""
}
