package transport

import (
	"context"
	"net/http"
	"strings"
)

// Mcp-Param-{name} headers (2026-07-28): a tool's input schema may mark
// fields with x-mcp-header, and a tools/call over Streamable HTTP then
// mirrors their values into headers, so that gateways can route on them
// without reading the body. Which fields and values is the MCP client's
// business (it knows the tools); the transport only puts them on the POST,
// so they travel with the request through the context of its Write.

// ParamHeader is one Mcp-Param-{Name} header: Name is the x-mcp-header
// annotation, Value the argument's string form (a string as is, an integer
// in decimal, a boolean as true or false), before the era's encoding.
type ParamHeader struct {
	Name, Value string
}

type paramHeadersKey struct{}

// WithParamHeaders returns ctx carrying headers for the request written
// with it. The Streamable HTTP transport sends them, in the stateless era
// only, on that request's POST (and on its re-issue) as Mcp-Param-{Name},
// with a value that is not plain visible ASCII sent as =?base64?…?=. A
// Name that ValidParamName refuses is left out. Other transports ignore
// them.
func WithParamHeaders(ctx context.Context, headers []ParamHeader) context.Context {
	if len(headers) == 0 {
		return ctx
	}
	return context.WithValue(ctx, paramHeadersKey{}, headers)
}

// paramHeaders returns the headers WithParamHeaders put in ctx.
func paramHeaders(ctx context.Context) []ParamHeader {
	h, _ := ctx.Value(paramHeadersKey{}).([]ParamHeader)
	return h
}

// addParamHeaders sets the Mcp-Param-* headers of params on out.
func addParamHeaders(out http.Header, params []ParamHeader) {
	for _, p := range params {
		if !ValidParamName(p.Name) {
			continue
		}
		out[http.CanonicalHeaderKey("Mcp-Param-"+p.Name)] = []string{headerValue(p.Value)}
	}
}

// ValidParamName reports whether name may follow "Mcp-Param-": it is an
// RFC 9110 token (1*tchar), what a header name is made of. The client
// uses it to judge a tool's x-mcp-header annotations.
func ValidParamName(s string) bool {
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
