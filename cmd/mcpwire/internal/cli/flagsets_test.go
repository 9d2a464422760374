package cli

import (
	"flag"
	"slices"
	"strings"
	"testing"
)

// A command's help lists the flags it accepts and no others, its own
// first, the shared ones under their headings.
func TestHelpListsOnlyAcceptedFlags(t *testing.T) {
	t.Parallel()
	tools := run(t, "help", "tools").wantCode(t, 0).out
	for _, absent := range []string{"--tool-timeout", "--elicit", "--elicit-json", "--stderr  "} {
		if strings.Contains(tools, absent) {
			t.Errorf("help tools lists %s:\n%s", absent, tools)
		}
	}
	call := run(t, "help", "call").wantCode(t, 0).out
	for _, present := range []string{"--tool-timeout", "--elicit HOW", "--elicit-json", "(also\n                          --stderr)"} {
		if !strings.Contains(call, present) {
			t.Errorf("help call lacks %q:\n%s", present, call)
		}
	}
	own, url := strings.Index(call, "Flags:\n  --arg"), strings.Index(call, "A URL server:\n  --header")
	if own < 0 || url < own {
		t.Errorf("help call does not list its own flags first, then the URL server's:\n%s", call)
	}
	want := "Flags:\n  --json                  print stable JSON to stdout instead of text\n\nGlobal flags:\n  -h, --help              show this help\n"
	if got := run(t, "help", "version").wantCode(t, 0).out; !strings.HasSuffix(got, want) {
		t.Errorf("help version = %q, want it to end %q", got, want)
	}
}

// Every flag a command accepts is in its help, on a line of its own, and
// no help line is wider than a terminal's 80 columns.
func TestHelpShowsEveryAcceptedFlag(t *testing.T) {
	t.Parallel()
	for _, build := range commands {
		c := build()
		out := run(t, "help", c.Name).wantCode(t, 0).out
		c.FlagSet().VisitAll(func(f *flag.Flag) {
			name := "--" + f.Name
			if alias := flagAliases[f.Name]; alias != "" {
				name = "--" + alias
			}
			if !strings.Contains(out, "\n  "+name) {
				t.Errorf("help %s lacks %s", c.Name, name)
			}
		})
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "  --") && len(line) > helpWidth {
				t.Errorf("help %s: line wider than %d: %q", c.Name, helpWidth, line)
			}
		}
	}
}

// A flag the command does not take is a usage error naming it: one that
// belongs to other commands says which, a typo gets a suggestion.
func TestFlagNotForCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{a("tools", "--tool-timeout", "5s", "--", "srv"), "unknown flag --tool-timeout: tools does not take it (only call)"},
		{a("resources", "--elicit=defaults", "--", "srv"), "unknown flag --elicit: resources does not take it (only call, prompt, read, request)"},
		{a("tools", "--jsn", "--", "srv"), `unknown flag --jsn; did you mean "--json"?`},
		{a("version", "--timeout", "1s"), "unknown flag --timeout\n"},
	} {
		r := run(t, c.args...).wantCode(t, ExitUsage)
		if !strings.Contains(r.err, c.want) {
			t.Errorf("%q: stderr %q, want %q", c.args, r.err, c.want)
		}
	}
}

// The tables in flagsets.go name flags and commands that exist, so that a
// renamed flag cannot leave them quietly wrong.
func TestFlagTablesNameRealFlags(t *testing.T) {
	registered := make(map[string][]string) // flag -> commands that register it
	for _, build := range commands {
		c := build()
		fs := NewFlagSet(c.Name)
		c.Options().Flags(fs)
		fs.VisitAll(func(f *flag.Flag) { registered[f.Name] = append(registered[f.Name], c.Name) })
	}
	for name, only := range flagOnlyFor {
		for _, cmd := range only {
			if !slices.Contains(registered[name], cmd) {
				t.Errorf("flagOnlyFor[%q] names %s, which registers no such flag", name, cmd)
			}
		}
	}
	for _, g := range sharedFlagGroups {
		for _, name := range g.names {
			if len(registered[name]) == 0 {
				t.Errorf("group %q names --%s, which no command registers", g.title, name)
			}
		}
	}
	for alias, of := range flagAliases {
		if len(registered[alias]) == 0 || len(registered[of]) == 0 {
			t.Errorf("alias --%s of --%s: not both registered", alias, of)
		}
	}
}
