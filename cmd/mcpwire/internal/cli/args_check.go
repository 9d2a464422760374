package cli

import (
	"maps"
	"slices"
	"strings"
)

// checkNames refuses, before any call, an argument the tool's schema does
// not name (a typo the server would ignore or refuse with a less helpful
// message) and a required argument that is missing. Both are usage
// errors naming the argument.
func (a *toolArgs) checkNames(s *objectSchema) error {
	given := make([]string, 0, len(a.pairs)+len(a.obj))
	for _, p := range a.pairs {
		given = append(given, p.key)
	}
	for _, k := range slices.Sorted(maps.Keys(a.obj)) {
		given = append(given, k)
	}
	if !s.Open {
		for _, k := range given {
			if _, ok := s.Props[k]; !ok {
				return Usagef("the tool has no argument %q%s (%s)", k, didYouMean(k, s.Names), takes(s.Names))
			}
		}
	}
	for _, k := range s.Required {
		if !slices.Contains(given, k) {
			return Usagef("missing required argument %q: add --arg %s=VALUE", k, k)
		}
	}
	return nil
}

// takes says which arguments a tool takes.
func takes(names []string) string {
	if len(names) == 0 {
		return "it takes none"
	}
	return "it takes " + strings.Join(names, ", ")
}
