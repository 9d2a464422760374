package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
)

// upstreamTimeout bounds each request the gateway makes of its own accord
// (listing a server's templates), so one stuck server cannot stall the
// listing of the others.
const upstreamTimeout = 10 * time.Second

// catalog is the merged view of everything but tools: resources, resource
// templates and prompts as the host lists them, where each leads, and the
// capabilities the gateway declares. It is replaced whole on each sync.
type catalog struct {
	resources []json.RawMessage
	templates []json.RawMessage
	prompts   []json.RawMessage

	uris      map[string]route // listed URI -> server and its own URI
	templated []templateRoute  // sorted by literal prefix, longest first
	promptsBy map[string]route // listed name -> server and its own name
	caps      json.RawMessage
}

// upstream is what the gateway remembers of one server between syncs, so
// that a server that is down keeps its templates listed and its
// capabilities declared, as its tools stay listed from the manager's cache.
type upstream struct {
	caps      mcp.ServerCapabilities
	templates []mcp.ResourceTemplate
}

// syncCatalog lists resources, templates and prompts again and announces
// resources/list_changed or prompts/list_changed to hosts when the merged
// list differs from before.
func (g *Gateway) syncCatalog(ctx context.Context) []error {
	g.refreshUpstreams(ctx)
	g.mu.Lock()
	ups := make(map[string]upstream, len(g.upstreams))
	for name, u := range g.upstreams {
		ups[name] = u
	}
	prevPrompts := g.cat.promptsBy // replaced whole, never changed in place
	g.mu.Unlock()

	var errs []error
	next := &catalog{}
	resources := slices.DeleteFunc(g.m.Resources(), func(e manager.ResourceEntry) bool { return !g.serves(e.Server) })
	next.resources, next.uris = mergeResources(resources, &errs)
	next.templates, next.templated = mergeTemplates(ups, &errs)
	prompts := slices.DeleteFunc(g.m.Prompts(), func(e manager.PromptEntry) bool { return !g.serves(e.Server) })
	merged, perrs := mergeNamed(g.namer, "prompt", prompts, func(e manager.PromptEntry) route { return route{e.Server, e.Prompt.Name} }, prevPrompts)
	errs = append(errs, perrs...)
	next.promptsBy = make(map[string]route, len(merged))
	for _, p := range merged {
		p.entry.Prompt.Name = p.name
		if b, ok := encodeItem(p.entry.Prompt, p.route, &errs); ok {
			next.prompts = append(next.prompts, b)
			next.promptsBy[p.name] = p.route
		}
	}
	next.caps = capabilitiesOf(ups)

	g.mu.Lock()
	prev := g.cat
	g.cat = next
	g.mu.Unlock()
	g.srv.SetCapabilities(next.caps)
	if !sameItems(prev.resources, next.resources) || !sameItems(prev.templates, next.templates) {
		g.srv.Announce("notifications/resources/list_changed")
	}
	if !sameItems(prev.prompts, next.prompts) {
		g.srv.Announce("notifications/prompts/list_changed")
	}
	return errs
}

// refreshUpstreams asks every connected server for its capabilities and,
// when it has resources, its templates (which the manager does not keep).
// A server that is not connected keeps what was last learnt of it.
func (g *Gateway) refreshUpstreams(ctx context.Context) {
	for _, st := range g.m.Servers() {
		if st.State != manager.StateConnected || !g.serves(st.Name) {
			continue
		}
		cctx, cancel := context.WithTimeout(ctx, upstreamTimeout)
		u, ok := g.learn(cctx, st.Name)
		cancel()
		if !ok {
			continue
		}
		g.mu.Lock()
		g.upstreams[st.Name] = u
		g.mu.Unlock()
	}
}

func (g *Gateway) learn(ctx context.Context, name string) (upstream, bool) {
	c, err := g.m.Client(ctx, name)
	if err != nil {
		return upstream{}, false
	}
	u := upstream{caps: c.ServerCapabilities()}
	if u.caps.Resources != nil {
		t, err := c.ListResourceTemplates(ctx)
		if err != nil {
			g.warn(fmt.Errorf("server %q: listing its resource templates: %w", name, err))
			g.mu.Lock()
			u.templates = g.upstreams[name].templates // keep the last good list
			g.mu.Unlock()
		} else {
			u.templates = t
		}
	}
	return u, true
}

// serves reports whether the gateway serves the named server's items
// (Options.Servers).
func (g *Gateway) serves(name string) bool {
	return len(g.only) == 0 || slices.Contains(g.only, name)
}

// capabilitiesOf declares what some upstream has: tools always (the
// gateway's own list, which may fill later), and logging, resources (with
// subscribe when some upstream supports it), prompts and completions only
// when an upstream does.
func capabilitiesOf(ups map[string]upstream) json.RawMessage {
	caps := map[string]any{"tools": map[string]bool{"listChanged": true}}
	var resources, subscribe bool
	for _, u := range ups {
		c := u.caps
		if c.Logging != nil {
			caps["logging"] = struct{}{}
		}
		if c.Resources != nil {
			resources = true
			subscribe = subscribe || c.Resources.Subscribe
		}
		if c.Prompts != nil {
			caps["prompts"] = map[string]bool{"listChanged": true}
		}
		if c.Completions != nil {
			caps["completions"] = struct{}{}
		}
	}
	if resources {
		caps["resources"] = map[string]bool{"listChanged": true, "subscribe": subscribe}
	}
	b, _ := json.Marshal(caps) // maps of strings and bools always encode
	return b
}

func sameItems(a, b []json.RawMessage) bool {
	return slices.EqualFunc(a, b, func(x, y json.RawMessage) bool { return string(x) == string(y) })
}

// encodeItem encodes one upstream item for a list; one that does not
// encode is left out with an error naming its server.
func encodeItem(v any, r route, errs *[]error) (json.RawMessage, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("server %q: %q left out of the list: %w", r.server, r.tool, err))
		return nil, false
	}
	return b, true
}

// sortedServers returns the servers' names in the order that decides who
// keeps a URI two of them list.
func sortedServers[T any](m map[string]T) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.SortFunc(names, strings.Compare)
	return names
}

// route makes the server core ask the gateway for everything but tools.
func (g *Gateway) route() {
	lists := []struct {
		method, key string
		items       func(*catalog) []json.RawMessage
	}{
		{"resources/list", "resources", func(c *catalog) []json.RawMessage { return c.resources }},
		{"resources/templates/list", "resourceTemplates", func(c *catalog) []json.RawMessage { return c.templates }},
		{"prompts/list", "prompts", func(c *catalog) []json.RawMessage { return c.prompts }},
	}
	for _, l := range lists {
		g.srv.HandleList(l.method, l.key, func(context.Context) []json.RawMessage {
			g.mu.Lock()
			defer g.mu.Unlock()
			return l.items(g.cat)
		})
	}
	g.srv.HandleMethod("resources/read", g.readResource)
	g.srv.HandleMethod("resources/subscribe", g.subscribe(true))
	g.srv.HandleMethod("resources/unsubscribe", g.subscribe(false))
	g.srv.HandleListenSubscriptions(g.listen)
	g.srv.HandleMethod("prompts/get", g.getPrompt)
	g.srv.HandleMethod("completion/complete", g.complete)
	g.srv.HandleMethod("logging/setLevel", g.setLevel)
}

// relayNotification passes on what an upstream tells its client that a
// host should hear: log messages and resource updates. (list_changed
// arrives as the manager's *Changed events and is the gateway's own.)
func (g *Gateway) relayNotification(e manager.Event) {
	if e.Notification == nil || !g.serves(e.Server) {
		return
	}
	switch e.Notification.Method {
	case mcp.NotificationMessage:
		g.onLog(e.Server, e.Notification.Params)
	case mcp.NotificationResourceUpdated:
		g.onResourceUpdated(e.Server, e.Notification.Params)
	}
}
