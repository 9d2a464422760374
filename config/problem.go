package config

import (
	"errors"
	"fmt"
	"strings"
)

// Problem is one thing wrong in a config file: a syntax error, an invalid
// field, a variable that cannot be resolved. It names the file, the
// server and the field, never the value of an env entry, a header or a
// URL credential.
type Problem struct {
	File   string
	Line   int // 1-based; 0 when unknown
	Col    int // 1-based, in characters; 0 when unknown
	Server string
	// Field is a path inside the server: "command", "args[2]",
	// "headers.Authorization", "inputs[0].id".
	Field string
	Msg   string
	// Warning marks a problem that did not stop the server loading, such
	// as an unknown field.
	Warning bool
	// Err is the typed cause, when there is one a caller may act on
	// (*MissingInputError); Msg already holds its text. Unwrap returns it.
	Err error
}

// Unwrap returns the typed cause, or nil.
func (p Problem) Unwrap() error { return p.Err }

// Error formats the problem as file:line:col: server "x": field: msg.
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
		if p.Col > 0 {
			fmt.Fprintf(&b, ":%d", p.Col)
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if p.Warning {
		b.WriteString("warning: ")
	}
	if p.Server != "" {
		fmt.Fprintf(&b, "server %q: ", p.Server)
	}
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// joinProblems returns the errors (not warnings) among ps joined, or nil.
func joinProblems(ps []Problem) error {
	var errs []error
	for _, p := range ps {
		if !p.Warning {
			errs = append(errs, p)
		}
	}
	return errors.Join(errs...)
}
