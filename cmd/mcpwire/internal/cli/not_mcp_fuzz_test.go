package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/transport"
)

// What a web server answers (status, content type, body) reaches
// shortenNotMCP through the transport's errors: whatever it is, the line
// never carries the body.
func FuzzShortenNotMCP(f *testing.F) {
	f.Add("200 OK", "text/html", "<!DOCTYPE html><html><body>secret page</body></html>")
	f.Add("404 Not Found", "text/plain", "<html>")
	f.Add("", "", "")
	f.Fuzz(func(t *testing.T, status, contentType, body string) {
		errs := []error{
			fmt.Errorf("transport: POST u (x): %w: the server answered %s with Content-Type %q (a login page or a proxy's page?); the body begins %q", transport.ErrNotMCPEndpoint, status, contentType, body),
			fmt.Errorf("transport: GET u answered %s with Content-Type %q, not text/event-stream: not a legacy SSE endpoint", status, contentType),
			&transport.HTTPError{StatusCode: 404, Status: status, Body: body},
		}
		for _, err := range errs {
			got := shortenNotMCP(err)
			if _, short := got.(*notMCPEndpoint); short && len(body) > 8 && !strings.Contains(status+contentType, body) && strings.Contains(got.Error(), body) {
				t.Errorf("the body is in the line: %q", got.Error())
			}
		}
	})
}
