package cli

// flagsets.go says which flags each command accepts and how its help
// groups them. Commands share option structs (TargetFlags registers every
// way to reach a server), so a command's registered flags are more than
// it can use: a few are narrowed here to the commands they mean something
// to, and the rest are grouped in help by what they are for, so that
// "mcpwire help tools" shows the command's own flags first and the
// server flags under headings instead of one list of twenty-five.

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// flagGroup is a heading in a command's help and the shared flags under it.
type flagGroup struct {
	title string
	names []string
}

// sharedFlagGroups are the flags several commands take from shared
// option structs, in the order help shows them. A flag in none of them is
// the command's own and is listed first, under "Flags:".
var sharedFlagGroups = []flagGroup{
	{"A URL server", []string{"header", "bearer-token-env", "transport"}},
	{"A -- COMMAND server (stdio)", []string{"env", "inherit-env"}},
	{"Configured servers", []string{"config", "server", "strict", "input"}},
	{"Connection", []string{"timeout", "tool-timeout", "protocol", "log-level", "verbose", "allow-insecure-http", "record"}},
	{"The server's questions", []string{"elicit", "elicit-json", "sampling-cmd", "confirm-sampling", "root"}},
}

// flagOnlyFor narrows shared flags to the commands that use them: only a
// tool call has the tool deadline, and only calls, prompts, reads and raw
// requests are answered with a form (elicitation) in any era. Every
// command that registers a flag not named here accepts it.
var flagOnlyFor = map[string][]string{
	"tool-timeout": {"call"},
	"elicit":       {"call", "prompt", "read", "request"},
	"elicit-json":  {"call", "prompt", "read", "request"},
	// Sampling, like a form, comes while a request is worked on.
	"sampling-cmd":     {"call", "prompt", "read", "request"},
	"confirm-sampling": {"call", "prompt", "read", "request"},
}

// flagAliases are second names of a flag, accepted and shown beside it
// rather than on a line of their own.
var flagAliases = map[string]string{"stderr": "verbose"}

// accepts reports whether command takes flag name (of those it registers).
func accepts(command, name string) bool {
	only, narrowed := flagOnlyFor[name]
	return !narrowed || slices.Contains(only, command)
}

// acceptedFlags is fs narrowed to the flags command accepts: the flag set
// Parse works on and help lists.
func acceptedFlags(command string, fs *flag.FlagSet) *flag.FlagSet {
	out := NewFlagSet(command)
	fs.VisitAll(func(f *flag.Flag) {
		if accepts(command, f.Name) {
			out.Var(f.Value, f.Name, f.Usage)
		}
	})
	return out
}

// unknownFlag is the usage error for a flag fs does not have, typed as
// arg: it says when the flag belongs to other commands, or suggests the
// nearest of fs's flags.
func unknownFlag(fs *flag.FlagSet, arg string) error {
	typed := flagName(arg)
	name := strings.TrimLeft(typed, "-")
	if only, ok := flagOnlyFor[name]; ok {
		return Usagef("unknown flag %s: %s does not take it (only %s)", typed, fs.Name(), strings.Join(only, ", "))
	}
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
	return Usagef("unknown flag %s%s", typed, didYouMean("--"+name, names))
}

// groupFlags splits fs's flags into the command's own (first) and the
// shared groups it has, in help order; aliases are left out.
func groupFlags(fs *flag.FlagSet) []flagGroup {
	shared := make(map[string]bool)
	for _, g := range sharedFlagGroups {
		for _, n := range g.names {
			shared[n] = true
		}
	}
	own := flagGroup{title: "Flags"}
	fs.VisitAll(func(f *flag.Flag) {
		if !shared[f.Name] && flagAliases[f.Name] == "" {
			own.names = append(own.names, f.Name)
		}
	})
	groups := []flagGroup{own}
	for _, g := range sharedFlagGroups {
		have := flagGroup{title: g.title}
		for _, n := range g.names {
			if fs.Lookup(n) != nil {
				have.names = append(have.names, n)
			}
		}
		groups = append(groups, have)
	}
	return slices.DeleteFunc(groups, func(g flagGroup) bool { return len(g.names) == 0 })
}

// aliasesOf lists the aliases of name that fs has, as "--alias".
func aliasesOf(fs *flag.FlagSet, name string) string {
	var out []string
	for alias, of := range flagAliases {
		if of == name && fs.Lookup(alias) != nil {
			out = append(out, "--"+alias)
		}
	}
	slices.Sort(out)
	if len(out) == 0 {
		return ""
	}
	return fmt.Sprintf(" (also %s)", strings.Join(out, ", "))
}
