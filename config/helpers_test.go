package config

import (
	"strings"
	"testing"
)

// envOf returns an Env lookup over a fixed map.
func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// parseOne parses data and returns the servers by name and the problems.
func parseOne(t *testing.T, format Format, data string, env map[string]string) (map[string]*Server, []Problem) {
	t.Helper()
	servers, problems := Parse([]byte(data), "test.json", format, LoadOptions{Env: envOf(env), Dir: "/proj", HomeDir: "/home/dev"})
	byName := make(map[string]*Server)
	for _, s := range servers {
		if byName[s.Name] != nil {
			t.Fatalf("server %q returned twice", s.Name)
		}
		byName[s.Name] = s
	}
	return byName, problems
}

// errorsOf returns the problems that are errors, formatted.
func errorsOf(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		if !p.Warning {
			out = append(out, p.Error())
		}
	}
	return out
}

func warningsOf(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		if p.Warning {
			out = append(out, p.Error())
		}
	}
	return out
}

// wantProblem fails unless one problem has every one of the substrings.
func wantProblem(t *testing.T, ps []Problem, subs ...string) {
	t.Helper()
	for _, p := range ps {
		e := p.Error()
		all := true
		for _, s := range subs {
			if !strings.Contains(e, s) {
				all = false
				break
			}
		}
		if all {
			return
		}
	}
	var lines []string
	for _, p := range ps {
		lines = append(lines, "  "+p.Error())
	}
	t.Errorf("no problem contains %q; problems:\n%s", subs, strings.Join(lines, "\n"))
}
