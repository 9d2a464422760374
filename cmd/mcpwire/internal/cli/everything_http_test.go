package cli

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// server-everything from npm over Streamable HTTP: one server for all the
// cases, each a fresh session of its own.
func TestServerEverythingStreamableHTTP(t *testing.T) {
	t.Parallel()
	base := interop.StartEverythingHTTP(t, "streamableHttp")
	// The server listens on a free port picked for this run.
	normalise := strings.NewReplacer(base, "$BASE").Replace
	got := transcript(t, a(base+"/mcp"), normalise,
		a("tools", "--transport", "http"),
		a("tools", "get-sum"),
		a("call", "get-sum", "--arg", "a=1", "--arg", "b=41"),
		a("call", "echo", "--json", "--arg", "message=1e3"),
		a("call", "get_sum", "--arg", "a=1", "--arg", "b=2"),
		a("call", "get-sum", "--arg", "a=one", "--arg", "b=2"),
		// The server refuses a prompt it does not list: a usage error, as
		// an unknown tool is.
		a("prompt", "nosuch"),
	)
	wantExits(t, got, 0, 0, 0, 0, ExitUsage, ExitUsage, ExitUsage)
	golden(t, "everything-http.golden", got)
}

// The same server over legacy SSE: the listing and a call are enough to
// show the transport carries the CLI's session.
func TestServerEverythingSSE(t *testing.T) {
	t.Parallel()
	base := interop.StartEverythingHTTP(t, "sse")
	// The server listens on a free port picked for this run.
	normalise := strings.NewReplacer(base, "$BASE").Replace
	got := transcript(t, a("--transport", "sse", base+"/sse"), normalise,
		a("tools", "get-sum"),
		a("call", "get-sum", "--arg", "a=1", "--arg", "b=41"),
	)
	wantExits(t, got, 0, 0)
	golden(t, "everything-sse.golden", got)
}
