package cli

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/gateway"
)

// maxToolName is the longest tool name the 2025-11-25 specification
// allows.
const maxToolName = 128

// checkNamePart refuses a --prefix or --separator value with a character
// a tool name may not hold ([A-Za-z0-9_.-] since 2025-11-25): every tool
// listed under it would break the rule, and hosts that check it refuse
// the whole list. The value is no secret; the message names the
// character, escaped so that a control character shows.
func checkNamePart(flag, v string) error {
	for _, r := range v {
		if !toolNameRune(r) {
			return Usagef("%s: the character %q (U+%04X) cannot be in a tool name; use letters, digits, \"_\", \"-\" and \".\" only (MCP's tool-name rule)", flag, string(r), r)
		}
	}
	if len(v) >= maxToolName-1 {
		return Usagef("%s: %d characters leave no room for a tool's name within the %d a tool name may have", flag, len(v), maxToolName)
	}
	return nil
}

func toolNameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.'
}

// checkPrefixServers refuses a --prefix for a server that is not served:
// ignored, it would leave the operator believing the tools are listed
// under a prefix they are not. A TARGET is served under its tools' own
// names, so no --prefix applies to it.
func checkPrefixServers(prefixes map[string]string, known func(string) bool, names []string) error {
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range prefixes {
			if !yield(k) {
				return
			}
		}
	}) {
		if known == nil {
			return Usagef("--prefix %s=...: --prefix is for configured servers; a TARGET is served under its tools' own names", k)
		}
		if !known(k) {
			return Usagef("--prefix %s=...: no configured server is named %q%s (\"mcpwire servers\" lists them)", k, k, didYouMean(k, names))
		}
	}
	return nil
}

// reportCollisions prints the tool names two servers or more would share,
// one a line with the servers that offer it, and returns the error that
// says how to tell them apart. A config problem, not a command line gone
// wrong: no usage hint follows (ConfigError).
func (o *gatewayOptions) reportCollisions(streams *IOStreams, ce *gateway.CollisionError) error {
	owners := map[string][]gateway.Owner{}
	for _, c := range ce.Collisions {
		if len(owners[c.Name]) == 0 {
			owners[c.Name] = append(owners[c.Name], c.Kept)
		}
		owners[c.Name] = append(owners[c.Name], c.Left)
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range owners {
			if !yield(n) {
				return
			}
		}
	})
	fmt.Fprintf(streams.ErrOut, "mcpwire: serve: %d tool %s offered by more than one server:\n", len(names), plural(len(names), "name is", "names are"))
	for _, n := range names {
		var by []string
		for _, ow := range owners[n] {
			by = append(by, fmt.Sprintf("server %q (its tool %q)", ow.Server, ow.Name))
		}
		fmt.Fprintf(streams.ErrOut, "  %q: %s\n", n, Sanitize(strings.Join(by, ", ")))
	}
	if o.NoPrefix {
		return &ConfigError{Msg: "serve: with --no-prefix every tool keeps its own name, so these collide; drop --no-prefix to list each server's tools as SERVER" + o.Separator + "TOOL (the default prefixes), with --prefix SERVER= to keep one server's tools under their own names"}
	}
	return &ConfigError{Msg: "serve: the prefixes given make these collide; give each of these servers a prefix of its own with --prefix SERVER=PREFIX (or drop its --prefix: a server's default prefix is its name)"}
}

// plural picks one or many by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
