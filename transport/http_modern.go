package transport

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The stateless era of MCP (2026-07-28 and later) changes the wire rules
// of Streamable HTTP: every POST names its method (Mcp-Method) and, for
// the methods that address one thing, that thing (Mcp-Name); there is no
// session, no GET listener, no DELETE and no resumption; closing a
// request's reply stream is how it is cancelled. The client above tells
// the stream the era through ProtocolVersionSetter: a version of the
// stateless era switches the stream to these rules before the first
// request goes out. The legacy path pays one atomic load per POST.

const (
	headerMcpMethod = "Mcp-Method"
	headerMcpName   = "Mcp-Name"

	// firstStatelessVersion is the first revision of the stateless era.
	firstStatelessVersion = "2026-07-28"

	headerBase64Prefix = "=?base64?"
	headerBase64Suffix = "?="
)

// isStatelessVersion reports whether v is a revision of the stateless era
// (revisions are dates, so they compare as strings).
func isStatelessVersion(v string) bool {
	return v >= firstStatelessVersion && isVisibleASCII(v)
}

// statelessHeader returns the shared POST header h plus the Mcp-Method and
// Mcp-Name of the message. h is read-only (shared by POSTs), so the
// result is a new map that shares h's value slices.
func statelessHeader(h http.Header, method string, params []byte) http.Header {
	out := make(http.Header, len(h)+2)
	for k, v := range h {
		out[k] = v
	}
	out[headerMcpMethod] = []string{headerValue(method)}
	if name, ok := addressedName(method, params); ok {
		out[headerMcpName] = []string{headerValue(name)}
	}
	return out
}

// addressedName returns params.name of tools/call and prompts/get and
// params.uri of resources/read: what Mcp-Name carries.
func addressedName(method string, params []byte) (string, bool) {
	var p struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	}
	switch method {
	case "tools/call", "prompts/get":
		if json.Unmarshal(params, &p) != nil {
			return "", false
		}
		return p.Name, true
	case "resources/read":
		if json.Unmarshal(params, &p) != nil {
			return "", false
		}
		return p.URI, true
	}
	return "", false
}

// headerValue returns s as it travels in an Mcp- header: as is when it is
// printable ASCII without edge whitespace (and does not look encoded),
// else as =?base64?…?= of its UTF-8 bytes.
func headerValue(s string) string {
	plain := s == strings.TrimSpace(s) && !strings.HasPrefix(s, headerBase64Prefix)
	for i := 0; plain && i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			plain = false
		}
	}
	if plain {
		return s
	}
	return headerBase64Prefix + base64.StdEncoding.EncodeToString([]byte(s)) + headerBase64Suffix
}

// statelessStreamBroken is the in-band failure of a call whose reply
// stream broke before its response in the stateless era, which has no
// resumption.
func (s *httpStream) statelessStreamBroken(call *postCall, cause string) {
	s.failCall(call, CodeTransportError, fmt.Sprintf("transport: the SSE stream for %s (id %s) from %s broke before its response (%s); the %s era cannot resume a stream, and the request was not sent again as it may have taken effect",
		call.method, call.id, s.redacted(), cause, firstStatelessVersion))
}
