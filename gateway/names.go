package gateway

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/manager"
)

// DefaultSeparator joins a server's prefix and its tool's name.
const DefaultSeparator = "__"

// route is where a gateway tool name leads.
type route struct {
	server, tool string
}

func (r route) owner() Owner { return Owner{Server: r.server, Name: r.tool} }

// Owner is an upstream item: its server and the server's own name for it.
type Owner struct {
	Server, Name string
}

// NameCollision is a name two upstream items (tools, prompts) would both
// be listed under. Kept keeps it; Left is left out of the list: the one
// listed under it before (Listed), else the first by server name, keeps
// it, so that a server whose items changed never takes over the calls
// hosts make to another's.
type NameCollision struct {
	Kind       string // "tool", "prompt"
	Name       string // the gateway's name for both
	Kept, Left Owner
	Listed     bool
}

func (e *NameCollision) Error() string {
	why := fmt.Sprintf("server %q sorts first", e.Kept.Server)
	if e.Listed {
		why = fmt.Sprintf("server %q's was listed under it before", e.Kept.Server)
	}
	return fmt.Sprintf("%s name %q is both server %q's %s %q and server %q's %s %q: left out server %q's %s %q (%s; a prefix of its own for either server tells them apart)",
		e.Kind, e.Name, e.Kept.Server, e.Kind, e.Kept.Name, e.Left.Server, e.Kind, e.Left.Name, e.Left.Server, e.Kind, e.Left.Name, why)
}

// CollisionError is New's error when names collide in the first listing:
// every collision, for a message that lists them.
type CollisionError struct {
	Collisions []*NameCollision
}

func (e *CollisionError) Error() string {
	errs := make([]error, len(e.Collisions))
	for i, c := range e.Collisions {
		errs[i] = c
	}
	return fmt.Sprintf("gateway: tool names collide: %v", errors.Join(errs...))
}

// named is one upstream item (a tool, a prompt) under its gateway name.
type named[T any] struct {
	name  string
	route route
	entry T
}

// namer turns (server, tool) into the name the host sees.
type namer struct {
	sep      string
	noPrefix bool
	prefixes map[string]string
}

func (n namer) name(server, tool string) string {
	if n.noPrefix {
		return tool
	}
	p, ok := n.prefixes[server]
	if !ok {
		p = safePrefix(server)
	}
	if p == "" {
		return tool
	}
	return p + n.sep + tool
}

// safePrefix keeps the characters tool names may have (letters, digits,
// "_", "-", ".") and replaces the rest with "_", so a server named "my
// files" still gives valid tool names.
func safePrefix(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
			return r
		}
		return '_'
	}, s)
}

// merge names every tool and sorts them by name; see mergeNamed.
func (n namer) merge(entries []manager.ToolEntry, prev map[string]route) ([]named[manager.ToolEntry], []error) {
	return mergeNamed(n, "tool", entries, func(e manager.ToolEntry) route { return route{e.Server, e.Tool.Name} }, prev)
}

// mergeNamed names every item (a kind such as "tool" or "prompt") and
// sorts them by name. Two items that end up with one name are a
// collision: the first (by server, then own name) keeps it and the others
// are returned as errors naming both owners.
func mergeNamed[T any](n namer, kind string, items []T, owner func(T) route, prev map[string]route) ([]named[T], []error) {
	out := make([]named[T], 0, len(items))
	for _, e := range items {
		r := owner(e)
		out = append(out, named[T]{name: n.name(r.server, r.tool), route: r, entry: e})
	}
	slices.SortStableFunc(out, func(a, b named[T]) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := strings.Compare(a.route.server, b.route.server); c != 0 {
			return c
		}
		return strings.Compare(a.route.tool, b.route.tool)
	})
	var errs []error
	kept := make([]named[T], 0, len(out))
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].name == out[i].name {
			j++
		}
		group := out[i:j]
		// The one listed before keeps the name: a server whose tools
		// changed must not take over the calls hosts make to another's.
		keep := slices.IndexFunc(group, func(t named[T]) bool { r, ok := prev[t.name]; return ok && t.route == r })
		listed := keep >= 0
		keep = max(keep, 0)
		kept = append(kept, group[keep])
		for k, t := range group {
			if k != keep {
				errs = append(errs, &NameCollision{Kind: kind, Name: t.name, Kept: group[keep].route.owner(), Left: t.route.owner(), Listed: listed})
			}
		}
		i = j
	}
	return kept, errs
}
