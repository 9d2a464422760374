package manager

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// MaxToolNameLen is the longest tool name model APIs accept; names are
// also limited to the characters of ^[a-zA-Z0-9_-]+$.
const MaxToolNameLen = 64

// ToolName is the model-facing name of a server's tool before collision
// handling: "mcp__<server>__<tool>" with every character outside
// [a-zA-Z0-9_-] replaced by "_". A name longer than MaxToolNameLen is cut
// and ends in "_" and 8 hex digits of the SHA-256 of the original
// "mcp__<server>__<tool>", so two long names that share a prefix still
// differ.
//
// The name is for the model only: the manager routes calls through its
// own table, so a server or tool name containing "__" is no problem.
func ToolName(server, tool string) string {
	full := "mcp__" + server + "__" + tool
	safe := sanitizeName(full)
	if len(safe) <= MaxToolNameLen {
		return safe
	}
	return safe[:MaxToolNameLen-9] + "_" + shortHash(full)
}

// sanitizeName replaces every rune outside [a-zA-Z0-9_-] with "_".
func sanitizeName(s string) string {
	// Most names are safe already: return them without copying.
	if strings.IndexFunc(s, unsafeRune) < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if unsafeRune(r) {
			b.WriteByte('_')
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unsafeRune reports whether r is outside [a-zA-Z0-9_-].
func unsafeRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
		return false
	}
	return true
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// serverNames is the part of naming that depends on one server alone:
// each tool's ToolName and the tools' order by name. It is computed once
// per tool list, so naming every server's tools again is a merge, not a
// sort and a sanitize of every tool.
type serverNames struct {
	server string
	tools  []string // the server's order
	base   []string // ToolName of tools[i]
	sorted []int32  // indexes into tools, by tool name
}

// newServerNames prepares the naming of a server's tools, which must be
// distinct.
func newServerNames(server string, tools []string) *serverNames {
	sn := &serverNames{server: server, tools: tools, base: make([]string, len(tools)), sorted: make([]int32, len(tools))}
	for i, t := range tools {
		sn.base[i] = ToolName(server, t)
		sn.sorted[i] = int32(i)
	}
	slices.SortFunc(sn.sorted, func(a, b int32) int { return strings.Compare(tools[a], tools[b]) })
	return sn
}

// sameTools reports whether tools are the names sn was made for, in the
// same order, so sn still holds for them.
func (sn *serverNames) sameTools(tools []string) bool {
	return slices.Equal(sn.tools, tools)
}

// route is where a model-facing name leads: tool idx of group (server)
// grp.
type route struct {
	grp, idx int32
}

// assignGroups gives every tool of groups a distinct model-facing name.
// The rule depends only on the set of (server, tool) pairs, not their
// order: pairs are sorted by server, then tool; each takes its ToolName
// if no earlier pair took it, and the rest then take the first free of
// name_2, name_3, … (cut so the suffix fits MaxToolNameLen). Plain names
// are handed out first, so a suffixed name never takes the plain name of
// another tool.
//
// groups must be sorted by server name and name distinct servers: walking
// them in that order, each in its sorted order, visits the tools as the
// rule sorts them. It
// returns each tool's name (assigned[g][i] for groups[g].tools[i]) and
// the route of every name.
func assignGroups(groups []*serverNames) (assigned [][]string, routes map[string]route) {
	total := 0
	for _, sn := range groups {
		total += len(sn.tools)
	}
	assigned = make([][]string, len(groups))
	routes = make(map[string]route, total)
	var losers []route
	for g, sn := range groups {
		assigned[g] = make([]string, len(sn.tools))
		for _, i := range sn.sorted {
			n := sn.base[i]
			if _, taken := routes[n]; taken {
				losers = append(losers, route{int32(g), i})
				continue
			}
			routes[n] = route{int32(g), i}
			assigned[g][i] = n
		}
	}
	for _, r := range losers {
		base := groups[r.grp].base[r.idx]
		for k := 2; ; k++ {
			n := withSuffix(base, k)
			if _, taken := routes[n]; !taken {
				routes[n] = r
				assigned[r.grp][r.idx] = n
				break
			}
		}
	}
	return assigned, routes
}

// withSuffix is name followed by _k, name cut so that the whole fits
// MaxToolNameLen.
func withSuffix(name string, k int) string {
	suffix := "_" + strconv.Itoa(k)
	if len(name)+len(suffix) > MaxToolNameLen {
		name = name[:MaxToolNameLen-len(suffix)]
	}
	return name + suffix
}
