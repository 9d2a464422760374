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
	password  map[string]bool   // input ids declared "password": true
	workspace string
	home      string
	// literal turns expansion off: the host (Codex) passes values as
	// written.
	literal bool
	// bareDollar makes $VAR a reference too, as Gemini CLI reads it.
	bareDollar bool
	// inspect reads no variable at all (an untrusted file): every
	// reference stays as written, and only its name is noted.
	inspect bool
	// read collects the names of the variables the definition being
	// parsed reads (Server.Vars); the parser resets it per definition.
	read []string
}

// lookup reads one variable through env, noting its name. In inspect
// mode env is never called: the value is the reference as written.
func (r *resolver) lookup(name string) (string, bool) {
	r.read = append(r.read, name)
	if r.inspect {
		return "${" + name + "}", true
	}
	return r.env(name)
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
	if r.literal || !strings.Contains(s, "$") {
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
		case r.bareDollar && s[i] == '$' && i+1 < len(s) && isNameByte(s[i+1]) && !(s[i+1] >= '0' && s[i+1] <= '9'):
			end := i + 1
			for end < len(s) && isNameByte(s[end]) {
				end++
			}
			v, err := r.variable("", s[i+1:end], "variable")
			if err != nil {
				return "", err
			}
			b.WriteString(v)
			i = end
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
		return r.variable("env:", body[len("env:"):], "environment variable")
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
		return "", &expandError{msg: fmt.Sprintf("unsupported reference %s (supported: ${VAR}, ${VAR:-default}, ${env:VAR}, ${input:id})", maskedRef("", body))}
	}
	return r.variable("", body, "variable")
}

// maskedRef quotes a malformed reference for an error message: the scheme
// ("env:") and the leading name, with whatever follows the name replaced
// by "…". A reference such as ${TOKEN:sk-live-…} is a secret written where
// a default or a name was meant, and must not reach a terminal or a log.
func maskedRef(scheme, body string) string {
	n := 0
	for n < len(body) && isNameByte(body[n]) {
		n++
	}
	name := body[:n]
	if n < len(body) {
		if body[n] == ':' {
			name += ":"
		}
		name += "…"
	}
	if len(name) > maxNameInMessage {
		name = name[:maxNameInMessage] + "…"
	}
	return fmt.Sprintf("%q", "${"+scheme+name+"}")
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// variable resolves "NAME" or "NAME:-default" from the environment.
func (r *resolver) variable(scheme, body, what string) (string, error) {
	name, def, hasDefault := strings.Cut(body, ":-")
	if !validVarName(name) {
		return "", &expandError{msg: "invalid variable name in " + maskedRef(scheme, name)}
	}
	if r.inspect {
		r.read = append(r.read, name)
		if hasDefault {
			// The default's own references would be read too.
			if _, err := r.expand(def); err != nil {
				return "", err
			}
		}
		return "${" + scheme + body + "}", nil
	}
	v, ok := r.lookup(name)
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
	envName := InputEnvName(id)
	if r.inspect {
		r.read = append(r.read, envName)
		return "${input:" + id + "}", nil
	}
	if v, ok := r.inputs[id]; ok {
		return v, nil
	}
	if v, ok := r.lookup(envName); ok {
		return v, nil
	}
	desc, declared := r.declared[id]
	return "", &MissingInputError{ID: id, Description: desc, Declared: declared, Password: r.password[id], EnvName: envName}
}

// MissingInputError is why a VS Code ${input:ID} reference has no value:
// neither LoadOptions.Inputs nor the environment variable EnvName
// supplies it. The library never prompts; a caller that can ask the user
// (or take a flag) finds this error in a Problem (Problem.Err, or
// errors.As on Set.Err) and says how to give the value.
type MissingInputError struct {
	ID string
	// Description is the input's "description" from the file's "inputs",
	// if it has one.
	Description string
	// Declared reports whether the file's "inputs" declares ID.
	Declared bool
	// Password reports that the declaration says "password": true: a
	// caller that asks for the value must not show it as it is typed.
	Password bool
	// EnvName is InputEnvName(ID), the variable that supplies the value.
	EnvName string
}

// Error names the input and the environment variable that supplies it,
// never a value.
func (e *MissingInputError) Error() string {
	desc := ""
	switch {
	case e.Description != "":
		desc = fmt.Sprintf(" (%s)", quoteName(e.Description))
	case !e.Declared:
		desc = ` (not declared in "inputs")`
	}
	return fmt.Sprintf("input %s%s has no value; the environment variable %s supplies one", quoteName(e.ID), desc, e.EnvName)
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
