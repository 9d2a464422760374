// Package paramheader carries the Mcp-Param-{name} headers of a tools/call
// (2026-07-28) from the MCP client, which knows the tools and works out
// which arguments a tool's input schema marks with x-mcp-header, to the
// Streamable HTTP transport, which puts them on the request's POST. They
// travel in the context of the request's Write, so that the stream
// interface stays Read, Write and Close.
package paramheader

import (
	"context"
	"strings"
)

// Header is one Mcp-Param-{Name} header: Name is the x-mcp-header
// annotation, Value the argument's string form (a string as is, an integer
// in decimal, a boolean as true or false), before the era's encoding.
type Header struct {
	Name, Value string
}

type key struct{}

// With returns ctx carrying headers for the request written with it. A
// Name that ValidName refuses is left out by the transport.
func With(ctx context.Context, headers []Header) context.Context {
	if len(headers) == 0 {
		return ctx
	}
	return context.WithValue(ctx, key{}, headers)
}

// From returns the headers With put in ctx.
func From(ctx context.Context) []Header {
	h, _ := ctx.Value(key{}).([]Header)
	return h
}

// ValidName reports whether name may follow "Mcp-Param-": it is an RFC
// 9110 token (1*tchar), what a header name is made of. The client uses it
// to judge a tool's x-mcp-header annotations.
func ValidName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0 {
			continue
		}
		return false
	}
	return true
}
