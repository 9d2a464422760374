package cli

import (
	"errors"
	"strings"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
)

// invalidDefinition words a server whose definition has errors: its
// problems, each at its file, line and column, without the server's name
// (the line that shows them names it) and without the manager's
// "invalid server definition" label and source, which would say the file
// and the server a second time. ok is false for any other failure.
func invalidDefinition(err error) (text string, ok bool) {
	if !errors.Is(err, manager.ErrInvalidConfig) {
		return "", false
	}
	var lines []string
	for _, p := range configProblems(err) {
		if p.Warning {
			continue
		}
		p.Server = ""
		lines = append(lines, cliWording(p.Error()))
	}
	if len(lines) == 0 {
		return "", false
	}
	return strings.Join(lines, "; "), true
}

// configProblems finds the config problems anywhere in err's tree: the
// manager joins a server's problems and wraps them beside its sentinel.
func configProblems(err error) []config.Problem {
	switch e := err.(type) {
	case nil:
		return nil
	case config.Problem:
		return []config.Problem{e}
	case *config.Problem:
		return []config.Problem{*e}
	case interface{ Unwrap() []error }:
		var ps []config.Problem
		for _, inner := range e.Unwrap() {
			ps = append(ps, configProblems(inner)...)
		}
		return ps
	}
	return configProblems(errors.Unwrap(err))
}
