package cli

import (
	"strings"
	"testing"
)

// --allowed-host takes a host name, as the Host check compares it: with
// a port, a scheme or a path it could never match, and every request got
// 403. Before, such a value was taken without a word.
func TestServeAllowedHostMustBeAName(t *testing.T) {
	for _, bad := range []string{"mcp.example.com:8080", "https://mcp.example.com", "mcp.example.com/mcp", ""} {
		// An address that cannot be bound: were the flag taken, serve
		// would fail there instead, later and for another reason.
		r := run(t, "serve", "--listen", "127.0.0.1:99999", "--no-auth", "--allowed-host", bad, "--", "no-such-server").wantCode(t, ExitUsage)
		if !strings.Contains(r.err, "--allowed-host") {
			t.Errorf("--allowed-host %q: stderr %q does not name the flag", bad, r.err)
		}
	}
}
