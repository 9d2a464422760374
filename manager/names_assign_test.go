package manager

import (
	"slices"
	"strings"
)

// toolRef is one tool of one server, before naming.
type toolRef struct {
	server, tool string
}

// assignNames names a set of refs at once with assignGroups, for tests
// that check the naming rule on a plain set of tools. The manager itself
// keeps each server's serverNames and calls assignGroups.
func assignNames(refs []toolRef) map[toolRef]string {
	byServer := make(map[string][]string)
	for _, r := range refs {
		byServer[r.server] = append(byServer[r.server], r.tool)
	}
	groups := make([]*serverNames, 0, len(byServer))
	for srv, tools := range byServer {
		slices.Sort(tools)
		groups = append(groups, newServerNames(srv, slices.Compact(tools)))
	}
	slices.SortFunc(groups, func(a, b *serverNames) int { return strings.Compare(a.server, b.server) })
	assigned, _ := assignGroups(groups)
	names := make(map[toolRef]string, len(refs))
	for g, sn := range groups {
		for i, tool := range sn.tools {
			names[toolRef{sn.server, tool}] = assigned[g][i]
		}
	}
	return names
}
