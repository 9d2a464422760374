package cli

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/mcpwire/mcpwire/transport"
)

// A URL that leads to a web page (a login page, a proxy's error page, a
// site's front page) instead of an MCP server fails the handshake with
// the transport's error, which quotes the start of the page. A person
// needs one line instead: what answered, and what was expected. The hint
// (htmlHint) then names the usual endpoints.

// notMCPEndpoint is that line; Unwrap keeps the transport's error for
// errors.Is and the exit status.
type notMCPEndpoint struct {
	found, expected string
	err             error
}

func (e *notMCPEndpoint) Error() string {
	return fmt.Sprintf("%s, not an MCP endpoint (expected %s)", e.found, e.expected)
}

func (e *notMCPEndpoint) Unwrap() error { return e.err }

// answeredWith matches the transport's words for a reply of the wrong
// kind: `answered 200 OK with Content-Type "text/html"`.
var answeredWith = regexp.MustCompile(`answered (\d{3}[^"]*?) with Content-Type "([^"]*)"`)

// shortenNotMCP returns err as one notMCPEndpoint line when it says that
// a web page answered, and err itself otherwise.
func shortenNotMCP(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	legacy := strings.Contains(msg, "not a legacy SSE endpoint")
	if m := answeredWith.FindStringSubmatch(msg); m != nil && (legacy || errors.Is(err, transport.ErrNotMCPEndpoint)) {
		found := fmt.Sprintf("HTTP %s with %s", m[1], orUnknown(m[2]))
		if legacy {
			return &notMCPEndpoint{found: found, expected: "an event stream, text/event-stream, for the legacy HTTP+SSE transport", err: err}
		}
		return &notMCPEndpoint{found: found, expected: "a JSON-RPC answer, application/json or text/event-stream", err: err}
	}
	var httpErr *transport.HTTPError
	if errors.As(err, &httpErr) && httpErr.RPCError == nil && isHTMLPage(httpErr.Body) {
		status := httpErr.Status
		if status == "" {
			status = fmt.Sprint(httpErr.StatusCode)
		}
		return &notMCPEndpoint{found: fmt.Sprintf("HTTP %s with an HTML page", status), expected: "a JSON-RPC answer, application/json or text/event-stream", err: err}
	}
	return err
}

// isHTMLPage reports whether a reply body is the start of an HTML page.
func isHTMLPage(body string) bool {
	head := strings.ToLower(strings.TrimSpace(body))
	return strings.HasPrefix(head, "<!doctype html") || strings.HasPrefix(head, "<html") || strings.HasPrefix(head, "<head") || strings.HasPrefix(head, "<body")
}
