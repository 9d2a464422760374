package gateway

import (
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

// named is one upstream tool under its gateway name.
type named struct {
	name  string
	route route
	entry manager.ToolEntry
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

// merge names every entry and sorts them by name. Two entries that end up
// with one name are a collision: the first (by server, then tool) keeps
// it and the others are returned as errors naming both owners.
func (n namer) merge(entries []manager.ToolEntry) ([]named, []error) {
	out := make([]named, 0, len(entries))
	for _, e := range entries {
		out = append(out, named{name: n.name(e.Server, e.Tool.Name), route: route{e.Server, e.Tool.Name}, entry: e})
	}
	slices.SortStableFunc(out, func(a, b named) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := strings.Compare(a.route.server, b.route.server); c != 0 {
			return c
		}
		return strings.Compare(a.route.tool, b.route.tool)
	})
	var errs []error
	kept := make([]named, 0, len(out))
	for _, t := range out {
		if len(kept) > 0 && kept[len(kept)-1].name == t.name {
			first := kept[len(kept)-1].route
			errs = append(errs, fmt.Errorf("tool name %q is both server %q's tool %q and server %q's tool %q", t.name, first.server, first.tool, t.route.server, t.route.tool))
			continue
		}
		kept = append(kept, t)
	}
	return kept, errs
}
