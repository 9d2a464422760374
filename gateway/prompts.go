package gateway

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// Prompts are named as tools are (prefix, separator, own name); prompts/get
// goes to the owner under the prompt's own name.

func (g *Gateway) promptRoute(name string) (route, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r, ok := g.cat.promptsBy[name]
	return r, ok
}

func (g *Gateway) getPrompt(ctx context.Context, ss *server.Session, params json.RawMessage) (any, error) {
	var p struct {
		Name      string            `json:"name"`
		Arguments map[string]string `json:"arguments"`
	}
	if err := decodeParams("prompts/get", params, &p); err != nil {
		return nil, err
	}
	r, ok := g.promptRoute(p.Name)
	if !ok {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf("prompts/get: unknown prompt %q", p.Name))
	}
	ctx, hc := g.track(ctx, ss, r.server)
	defer g.untrack(r.server, hc)
	c, err := g.m.Client(ctx, r.server)
	if err != nil {
		return nil, g.upstreamError(r.server, err)
	}
	res, err := c.GetPrompt(ctx, r.tool, p.Arguments)
	if err != nil {
		return nil, g.upstreamError(r.server, err)
	}
	return res, nil
}

// complete routes completion/complete by its ref: a prompt by its listed
// name, a resource (template) by its URI, found as resources/read finds
// one.
func (g *Gateway) complete(ctx context.Context, _ *server.Session, params json.RawMessage) (any, error) {
	var p struct {
		Ref      mcp.CompletionRef      `json:"ref"`
		Argument mcp.CompletionArgument `json:"argument"`
		Context  struct {
			Arguments map[string]string `json:"arguments"`
		} `json:"context"`
	}
	if err := decodeParams("completion/complete", params, &p); err != nil {
		return nil, err
	}
	var r route
	var ok bool
	ref := p.Ref
	switch ref.Type {
	case mcp.RefPrompt:
		r, ok = g.promptRoute(ref.Name)
		ref.Name = r.tool
	case mcp.RefResource:
		r, ok = g.resolveTemplate(ref.URI)
		ref.URI = r.tool
	default:
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf("completion/complete: ref.type %q is neither %s nor %s", p.Ref.Type, mcp.RefPrompt, mcp.RefResource))
	}
	if !ok {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf("completion/complete: no server has %s %q", p.Ref.Type, p.Ref.Name+p.Ref.URI))
	}
	c, err := g.m.Client(ctx, r.server)
	if err != nil {
		return nil, g.upstreamError(r.server, err)
	}
	res, err := c.Complete(ctx, ref, p.Argument, p.Context.Arguments)
	if err != nil {
		return nil, g.upstreamError(r.server, err)
	}
	if res.Values == nil {
		res.Values = []string{}
	}
	return map[string]any{"completion": res}, nil
}

// resolveTemplate finds a completion's resource ref: a listed template
// (as listed, or rewritten), else any URI resources/read would route.
func (g *Gateway) resolveTemplate(uri string) (route, bool) {
	g.mu.Lock()
	templated := g.cat.templated
	g.mu.Unlock()
	if server, own, ok := unrewrite(uri); ok && g.serves(server) && g.known(server) {
		return route{server, own}, true
	}
	for _, t := range templated {
		if t.listed == uri { // as listed: two servers' own templates may be the same
			return t.route, true
		}
	}
	return g.resolveURI(uri)
}

func decodeParams(method string, params json.RawMessage, v any) error {
	if len(params) == 0 {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf("%s: params: %v", method, err))
	}
	return nil
}
