package gateway

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// Resources keep their URIs: a URI is the resource's identity, and hosts
// show and store it. When two servers list the same URI (or URI
// template), the server whose name sorts first keeps it and every other
// one's is listed as
//
//	mcpwire://SERVER/URI
//
// (SERVER path-escaped, URI as the server lists it), which the gateway
// reads back from that server as URI. The same form works for any URI of
// any server, listed or not (a template's expansion).
const rewrittenScheme = "mcpwire://"

// rewrite is a server's URI (or template) in the gateway's own form.
func rewrite(server, uri string) string {
	return rewrittenScheme + url.PathEscape(server) + "/" + uri
}

// unrewrite splits a URI in the gateway's own form; ok is false for any
// other URI.
func unrewrite(uri string) (server, own string, ok bool) {
	rest, ok := strings.CutPrefix(uri, rewrittenScheme)
	if !ok {
		return "", "", false
	}
	escaped, own, ok := strings.Cut(rest, "/")
	if !ok || own == "" {
		return "", "", false
	}
	server, err := url.PathUnescape(escaped)
	if err != nil || server == "" {
		return "", "", false
	}
	return server, own, true
}

// templateRoute is a listed template and where its URIs lead: a URI that
// starts with the template's literal prefix (up to its first expression)
// belongs to that server.
type templateRoute struct {
	prefix string
	listed string // the template as the gateway lists it
	route  route  // server and the template as it lists it
}

// mergeResources lists every resource under its URI, or the rewritten one
// when a server earlier by name listed that URI already.
func mergeResources(entries []manager.ResourceEntry, errs *[]error) ([]json.RawMessage, map[string]route) {
	slices.SortStableFunc(entries, func(a, b manager.ResourceEntry) int { return strings.Compare(a.Server, b.Server) })
	var list []json.RawMessage
	uris := make(map[string]route, len(entries))
	for _, e := range entries {
		r := route{e.Server, e.Resource.URI}
		listed := e.Resource.URI
		if _, taken := uris[listed]; taken {
			listed = rewrite(e.Server, listed)
		}
		if _, taken := uris[listed]; taken {
			*errs = append(*errs, fmt.Errorf("server %q: resource %q listed twice; the second is left out", e.Server, e.Resource.URI))
			continue
		}
		e.Resource.URI = listed
		if b, ok := encodeItem(e.Resource, r, errs); ok {
			list = append(list, b)
			uris[listed] = r
		}
	}
	return list, uris
}

// mergeTemplates is mergeResources for templates.
func mergeTemplates(ups map[string]upstream, errs *[]error) ([]json.RawMessage, []templateRoute) {
	var list []json.RawMessage
	var routes []templateRoute
	taken := map[string]bool{}
	for _, name := range sortedServers(ups) {
		for _, t := range ups[name].templates {
			r := route{name, t.URITemplate}
			listed := t.URITemplate
			if taken[listed] {
				listed = rewrite(name, listed)
			}
			if taken[listed] {
				*errs = append(*errs, fmt.Errorf("server %q: resource template %q listed twice; the second is left out", name, t.URITemplate))
				continue
			}
			t.URITemplate = listed
			if b, ok := encodeItem(t, r, errs); ok {
				taken[listed] = true
				list = append(list, b)
				prefix, _, _ := strings.Cut(listed, "{")
				routes = append(routes, templateRoute{prefix: prefix, listed: listed, route: r})
			}
		}
	}
	slices.SortStableFunc(routes, func(a, b templateRoute) int { return cmp.Compare(len(b.prefix), len(a.prefix)) })
	return list, routes
}

// resolveURI finds the server a URI the host names belongs to, and the URI
// as that server knows it: a listed resource, the rewritten form, or the
// expansion of a listed template (the longest literal prefix wins).
func (g *Gateway) resolveURI(uri string) (route, bool) {
	g.mu.Lock()
	cat := g.cat
	g.mu.Unlock()
	if r, ok := cat.uris[uri]; ok {
		return r, true
	}
	if server, own, ok := unrewrite(uri); ok && g.serves(server) && g.known(server) {
		return route{server, own}, true
	}
	for _, t := range cat.templated {
		if t.prefix != "" && strings.HasPrefix(uri, t.prefix) {
			if server, own, ok := unrewrite(uri); ok {
				return route{server, own}, true
			}
			return route{t.route.server, uri}, true
		}
	}
	return route{}, false
}

func (g *Gateway) known(name string) bool {
	_, ok := g.m.Server(name)
	return ok
}

func uriParam(method string, params json.RawMessage) (string, error) {
	var p struct {
		URI string `json:"uri"`
	}
	if len(params) > 0 {
		if err := json.Unmarshal(params, &p); err != nil {
			return "", jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf("%s: params: %v", method, err))
		}
	}
	if p.URI == "" {
		return "", jsonrpc.NewError(jsonrpc.CodeInvalidParams, method+": params.uri is missing")
	}
	return p.URI, nil
}

// readResource routes resources/read by its URI. The contents come back
// under the URI the host asked for.
func (g *Gateway) readResource(ctx context.Context, ss *server.Session, params json.RawMessage) (any, error) {
	uri, err := uriParam("resources/read", params)
	if err != nil {
		return nil, err
	}
	r, ok := g.resolveURI(uri)
	if !ok {
		return nil, server.ResourceNotFound(uri)
	}
	ctx, hc := g.track(ctx, ss, r.server)
	defer g.untrack(r.server, hc)
	c, err := g.m.Client(ctx, r.server)
	if err != nil {
		return nil, g.upstreamError(r.server, err)
	}
	res, err := c.ReadResource(ctx, r.tool)
	if err != nil {
		return nil, g.upstreamError(r.server, err)
	}
	for i := range res.Contents {
		if res.Contents[i].URI == r.tool {
			res.Contents[i].URI = uri
		}
	}
	res.CacheHint = mcp.CacheHint{} // the upstream's hint is not the gateway's
	return res, nil
}

// subHolder is one host's hold on an upstream subscription: an
// older-era session (*server.Session) or a 2026-07-28 listen stream
// (*listenHold), and the URI it subscribed under, which its updates carry.
type subHolder struct {
	who any
	uri string
}

// listenHold stands for one subscriptions/listen stream among the holders.
// It is not empty, so that two of them never share an address.
type listenHold struct{ _ byte }

// live drops the holders whose older-era session ended without
// unsubscribing.
func live(holders map[subHolder]bool) {
	for h := range holders {
		if ss, ok := h.who.(*server.Session); ok && isDone(ss.Done()) {
			delete(holders, h)
		}
	}
}

// hold subscribes who to uri. The upstream is subscribed while at least
// one host holds one of the URIs that lead to that resource, so two hosts
// watching one resource (under one URI or two) cost it one subscription.
func (g *Gateway) hold(ctx context.Context, who any, uri string) error {
	r, ok := g.resolveURI(uri)
	if !ok {
		return server.ResourceNotFound(uri)
	}
	g.subMu.Lock()
	defer g.subMu.Unlock()
	holders := g.subs[r]
	live(holders)
	if len(holders) == 0 {
		c, err := g.m.Client(ctx, r.server)
		if err != nil {
			return g.upstreamError(r.server, err)
		}
		if err := c.SubscribeResource(ctx, r.tool); err != nil {
			return g.upstreamError(r.server, err)
		}
	}
	if holders == nil {
		holders = map[subHolder]bool{}
		g.subs[r] = holders
	}
	holders[subHolder{who, uri}] = true
	if ss, ok := who.(*server.Session); ok && !g.watched[ss] {
		g.watched[ss] = true
		go g.releaseWhenDone(ss)
	}
	return nil
}

// releaseWhenDone lets go of an older-era session's subscriptions when it
// ends: hosts rarely unsubscribe before they go, and without this the
// session stayed referenced, and the upstream subscribed, until another
// host happened to subscribe to the same resource.
func (g *Gateway) releaseWhenDone(ss *server.Session) {
	select {
	case <-ss.Done():
	case <-g.done:
		return
	}
	ctx, cancel := context.WithTimeout(g.ctx, upstreamTimeout)
	defer cancel()
	g.subMu.Lock()
	defer g.subMu.Unlock()
	delete(g.watched, ss)
	for r, holders := range g.subs {
		live(holders)
		if len(holders) > 0 {
			continue
		}
		delete(g.subs, r)
		c, err := g.m.Client(ctx, r.server)
		if err == nil {
			err = c.UnsubscribeResource(ctx, r.tool)
		}
		if err != nil {
			g.warn(fmt.Errorf("a host's session ended: unsubscribing %s: %w", r.tool, g.upstreamError(r.server, err)))
		}
	}
}

// unhold ends who's subscription to uri, and the upstream's with the last
// holder.
func (g *Gateway) unhold(ctx context.Context, who any, uri string) error {
	g.subMu.Lock()
	defer g.subMu.Unlock()
	h := subHolder{who, uri}
	for r, holders := range g.subs { // the route it was held under, whatever the catalog says now
		if !holders[h] {
			continue
		}
		live(holders)
		if len(holders) == 1 {
			c, err := g.m.Client(ctx, r.server)
			if err == nil {
				err = c.UnsubscribeResource(ctx, r.tool)
			}
			if err != nil {
				return g.upstreamError(r.server, err)
			}
			delete(g.subs, r)
			return nil
		}
		delete(holders, h)
		return nil
	}
	if _, ok := g.resolveURI(uri); !ok {
		return server.ResourceNotFound(uri)
	}
	return nil // not subscribed: nothing to end
}

// subscribe routes an older-era host's resources/subscribe and
// unsubscribe.
func (g *Gateway) subscribe(on bool) server.MethodHandler {
	method := "resources/unsubscribe"
	if on {
		method = "resources/subscribe"
	}
	return func(ctx context.Context, ss *server.Session, params json.RawMessage) (any, error) {
		uri, err := uriParam(method, params)
		if err != nil {
			return nil, err
		}
		if on {
			err = g.hold(ctx, ss, uri)
		} else {
			err = g.unhold(ctx, ss, uri)
		}
		if err != nil {
			return nil, err
		}
		return struct{}{}, nil
	}
}

// listen holds the resource subscriptions of a 2026-07-28 host's
// subscriptions/listen stream while it is open. A URI that leads nowhere
// or that its upstream refuses is left out of the acknowledgement, which
// tells the host (and the gateway's stderr says why).
func (g *Gateway) listen(ctx context.Context, _ *server.Session, uris []string) ([]string, func()) {
	who := &listenHold{}
	var held []string
	for _, uri := range uris {
		if err := g.hold(ctx, who, uri); err != nil {
			g.warn(fmt.Errorf("subscriptions/listen: %s: %w", uri, err))
			continue
		}
		held = append(held, uri)
	}
	return held, func() {
		// The stream's ctx has ended; the gateway's bounds the clean-up.
		ctx, cancel := context.WithTimeout(g.ctx, upstreamTimeout)
		defer cancel()
		for _, uri := range held {
			if err := g.unhold(ctx, who, uri); err != nil {
				g.warn(fmt.Errorf("subscriptions/listen ended: unsubscribing %s: %w", uri, err))
			}
		}
	}
}

func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// onResourceUpdated passes an upstream's resources/updated on to the
// hosts subscribed to that resource, under each URI they subscribed with.
func (g *Gateway) onResourceUpdated(serverName string, params json.RawMessage) {
	var p mcp.ResourceUpdated
	if err := json.Unmarshal(params, &p); err != nil || p.URI == "" {
		g.warn(fmt.Errorf("server %q sent notifications/resources/updated without a uri", serverName))
		return
	}
	g.subMu.Lock()
	uris := map[string]bool{}
	for h := range g.subs[route{serverName, p.URI}] {
		uris[h.uri] = true
	}
	g.subMu.Unlock()
	for uri := range uris {
		g.srv.ResourceUpdated(uri)
	}
}
