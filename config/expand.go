package config

import (
	"fmt"
	"strings"
)

// Variable expansion. The syntax is the union of what the hosts write:
//
//	${VAR}            environment variable VAR (Claude Code, Windsurf)
//	${VAR:-default}   VAR if set and not empty, else default (itself expanded)
//	${env:VAR}        environment variable VAR (VS Code, Cursor)
//	${input:id}       a VS Code input: LoadOptions.Inputs[id], else the
//	                  environment variable MCPWIRE_INPUT_<ID>
//	${workspaceFolder} the project directory (LoadOptions.Dir)
//	${userHome}       the home directory (LoadOptions.HomeDir)
//	$${               a literal "${" (the one escape)
//
// A "$" not followed by "{" is literal. Anything that cannot be resolved is
// an error: a "${...}" is never passed on to a server as written.

// resolver expands variables for one document.
type resolver struct {
	env       func(string) (string, bool)
	inputs    map[string]string
	declared  map[string]string // input id -> description, from "inputs"
	workspace string
	home      string
}

// expandError is why a value could not be expanded. It names the variable
// and never carries a value.
type expandError struct {
	msg string
}

func (e *expandError) Error() string { return e.msg }

// maxNameInMessage bounds how much of a variable reference an error quotes.
const maxNameInMessage = 64

func quoteName(s string) string {
	if len(s) > maxNameInMessage {
		s = s[:maxNameInMessage] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// expand returns s with every reference replaced, or the first reference
// that could not be resolved.
func (r *resolver) expand(s string) (string, error) {
	if !strings.Contains(s, "$") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], "$${"):
			b.WriteString("${")
			i += 3
		case strings.HasPrefix(s[i:], "${"):
			end := closingBrace(s, i+2)
			if end < 0 {
				return "", &expandError{msg: `unterminated "${": add the closing "}" (or write "$${" for a literal "${")`}
			}
			v, err := r.resolve(s[i+2 : end])
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = end + 1
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String(), nil
}

// closingBrace returns the index of the "}" that closes a reference whose
// body starts at s[from], counting nested "${" in defaults; -1 if none.
func closingBrace(s string, from int) int {
	depth := 1
	for j := from; j < len(s); j++ {
		switch {
		case s[j] == '$' && j+1 < len(s) && s[j+1] == '{':
			depth++
			j++
		case s[j] == '}':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// resolve returns the value of one reference body (the text between "${"
// and its "}").
func (r *resolver) resolve(body string) (string, error) {
	switch {
	case body == "":
		return "", &expandError{msg: `empty reference "${}"`}
	case strings.HasPrefix(body, "input:"):
		return r.input(body[len("input:"):])
	case strings.HasPrefix(body, "env:"):
		return r.variable(body[len("env:"):], "environment variable")
	case strings.HasPrefix(body, "workspaceFolder") || strings.HasPrefix(body, "userHome"):
		name, _, _ := strings.Cut(body, ":-")
		dir := r.workspace
		if name == "userHome" {
			dir = r.home
		}
		if (name == "workspaceFolder" || name == "userHome") && dir != "" {
			return dir, nil
		}
	}
	if i := strings.IndexByte(body, ':'); i >= 0 && !strings.HasPrefix(body[i:], ":-") {
		// ${config:...}, ${command:...} and the like are VS Code features
		// that need an editor.
		return "", &expandError{msg: fmt.Sprintf("unsupported reference %s (supported: ${VAR}, ${VAR:-default}, ${env:VAR}, ${input:id})", quoteName("${"+body+"}"))}
	}
	return r.variable(body, "variable")
}

// variable resolves "NAME" or "NAME:-default" from the environment.
func (r *resolver) variable(body, what string) (string, error) {
	name, def, hasDefault := strings.Cut(body, ":-")
	if !validVarName(name) {
		return "", &expandError{msg: fmt.Sprintf("invalid variable name %s in %s", quoteName(name), quoteName("${"+name+"}"))}
	}
	v, ok := r.env(name)
	if hasDefault && (!ok || v == "") {
		return r.expand(def)
	}
	if !ok {
		return "", &expandError{msg: fmt.Sprintf("%s %s is not set (write ${%s:-default} to give a default)", what, quoteName(name), name)}
	}
	return v, nil
}

// input resolves a VS Code ${input:id}. The library never prompts: the
// caller supplies inputs, or the user exports MCPWIRE_INPUT_<ID>.
func (r *resolver) input(id string) (string, error) {
	if id == "" {
		return "", &expandError{msg: `empty input id in "${input:}"`}
	}
	if v, ok := r.inputs[id]; ok {
		return v, nil
	}
	envName := InputEnvName(id)
	if v, ok := r.env(envName); ok {
		return v, nil
	}
	desc := ""
	if d, ok := r.declared[id]; ok && d != "" {
		desc = fmt.Sprintf(" (%s)", quoteName(d))
	} else if !ok {
		desc = " (not declared in \"inputs\")"
	}
	return "", &expandError{msg: fmt.Sprintf("input %s%s has no value: set the environment variable %s or pass it in LoadOptions.Inputs", quoteName(id), desc, envName)}
}

// validVarName reports whether name is a portable environment variable
// name: a letter or underscore, then letters, digits and underscores.
func validVarName(name string) bool {
	if name == "" {
		return false
	}
	for i, c := range name {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// InputEnvName returns the environment variable that supplies the VS Code
// input id when LoadOptions.Inputs does not: MCPWIRE_INPUT_ followed by
// the id in upper snake case ("api-key" and "apiKey" both give
// MCPWIRE_INPUT_API_KEY).
func InputEnvName(id string) string {
	isUpper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	isLower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	var b strings.Builder
	underscore := true // never start with one
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case isUpper(c):
			// A word starts at a capital after a lower-case letter or a
			// digit (apiKey), or at the last capital of an acronym that
			// is followed by lower case (APIKey).
			afterLower := i > 0 && (isLower(id[i-1]) || isDigit(id[i-1]))
			acronymEnd := i > 0 && isUpper(id[i-1]) && i+1 < len(id) && isLower(id[i+1])
			if (afterLower || acronymEnd) && !underscore {
				b.WriteByte('_')
			}
			b.WriteByte(c)
			underscore = false
		case isLower(c):
			b.WriteByte(c - 'a' + 'A')
			underscore = false
		case isDigit(c):
			b.WriteByte(c)
			underscore = false
		case !underscore:
			b.WriteByte('_')
			underscore = true
		}
	}
	return "MCPWIRE_INPUT_" + strings.TrimSuffix(b.String(), "_")
}
