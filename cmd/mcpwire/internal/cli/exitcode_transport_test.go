package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
)

// The same failure has the same exit status over every transport: a
// method the server does not know is its JSON-RPC error (exit 5), over
// stdio as over Streamable HTTP, where it comes in a 404.
func TestExitCodeDoesNotDependOnTheTransport(t *testing.T) {
	t.Parallel()
	hs := httpServer(t)
	for _, target := range [][]string{server(), {hs.URL}} {
		for _, method := range []string{"ping", "nosuch/method"} {
			r := run(t, args(a("request", method, "--protocol", "2026-07-28"), target)...)
			if r.code != ExitProtocol || !strings.Contains(r.err, "-32601") {
				t.Errorf("request %s %q: exit %d, stderr %q; want %d", method, target, r.code, r.err, ExitProtocol)
			}
		}
	}
}

// A sign-in the authorization server refuses exits 3, as a command that
// cannot sign in does, and says why.
func TestLoginRefusedExitsConnect(t *testing.T) {
	t.Setenv(signin.DirEnv, filepath.Join(t.TempDir(), "tokens"))
	p := newProtected(t)
	p.deny = true
	r := runLogin(t, &userAtBrowser{}, "login", "--no-browser", p.url())
	if r.code != ExitConnect || !strings.Contains(r.err, "access_denied") {
		t.Errorf("refused login: exit %d, stderr %q; want %d naming access_denied", r.code, r.err, ExitConnect)
	}
}
