package manager

import (
	"cmp"
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
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}

// toolRef is one tool of one server, before naming.
type toolRef struct {
	server, tool string
}

// assignNames gives each ref a distinct model-facing name. It depends only
// on the set of refs, not their order: refs are sorted by server, then
// tool; each takes its ToolName if no earlier ref took it, and the rest
// then take the first free of name_2, name_3, … (cut so the suffix fits
// MaxToolNameLen). Plain names are handed out first, so a suffixed name
// never takes the plain name of another tool.
func assignNames(refs []toolRef) map[toolRef]string {
	sorted := slices.Clone(refs)
	slices.SortFunc(sorted, func(a, b toolRef) int {
		return cmp.Or(strings.Compare(a.server, b.server), strings.Compare(a.tool, b.tool))
	})
	sorted = slices.Compact(sorted)
	names := make(map[toolRef]string, len(sorted))
	taken := make(map[string]bool, len(sorted))
	var losers []toolRef
	for _, r := range sorted {
		n := ToolName(r.server, r.tool)
		if taken[n] {
			losers = append(losers, r)
			continue
		}
		taken[n] = true
		names[r] = n
	}
	for _, r := range losers {
		base := ToolName(r.server, r.tool)
		for k := 2; ; k++ {
			suffix := "_" + strconv.Itoa(k)
			n := base
			if len(n)+len(suffix) > MaxToolNameLen {
				n = n[:MaxToolNameLen-len(suffix)]
			}
			n += suffix
			if !taken[n] {
				taken[n] = true
				names[r] = n
				break
			}
		}
	}
	return names
}
