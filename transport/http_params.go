package transport

import (
	"net/http"

	"github.com/mcpwire/mcpwire/internal/paramheader"
)

// Mcp-Param-{name} headers (2026-07-28): a tool's input schema may mark
// fields with x-mcp-header, and a tools/call over Streamable HTTP then
// mirrors their values into headers, so that gateways can route on them
// without reading the body. Which fields and values is the MCP client's
// business (it knows the tools); the transport only puts them on the POST,
// in the stateless era only (and on the request's re-issue), taking them
// from the context of the request's Write (internal/paramheader).

// addParamHeaders sets the Mcp-Param-* headers of params on out, a value
// that is not plain visible ASCII as =?base64?…?=, and leaves out a name
// that is not a header token.
func addParamHeaders(out http.Header, params []paramheader.Header) {
	for _, p := range params {
		if !paramheader.ValidName(p.Name) {
			continue
		}
		out[http.CanonicalHeaderKey("Mcp-Param-"+p.Name)] = []string{headerValue(p.Value)}
	}
}
