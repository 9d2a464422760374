package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
)

// TestLoginIssuerBindingHoldsThroughLogout: a client secret used with one
// authorization server is refused to a second one that the server's
// metadata names later. The error says what changed and how to accept
// the change; following the old advice (log out, sign in again) changes
// nothing; only --accept-issuer moves the binding. Until then, no request
// carrying the secret reaches the second authorization server.
func TestLoginIssuerBindingHoldsThroughLogout(t *testing.T) {
	const secret = "client-SECRET-bound-to-first"
	t.Setenv(signin.DirEnv, t.TempDir())
	t.Setenv("MCPWIRE_TEST_OAUTH_SECRET", secret)
	first := newProtected(t)
	second := newProtected(t)
	cfg := filepath.Join(t.TempDir(), "mcpwire.json")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`{"servers": {"remote": {"url": %q, "oauth": {"clientId": "pre-registered", "clientSecret": "${MCPWIRE_TEST_OAUTH_SECRET}"}}}}`, first.url())), 0o600)

	if r := runLogin(t, &userAtBrowser{}, "login", "--no-browser", "--config", cfg, "remote"); r.code != 0 {
		t.Fatalf("first login: exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
	}
	first.mu.Lock()
	if len(first.secrets) != 1 || first.secrets[0] != secret {
		t.Fatalf("the first authorization server got secrets %q", first.secrets)
	}
	// The server now names the second authorization server, and the
	// first one's tokens no longer count.
	first.issuer = second.as.URL
	clear(first.tokens)
	first.mu.Unlock()

	refused := func(what string, r loginResult) {
		t.Helper()
		if r.code == 0 {
			t.Fatalf("%s: exit 0\nstdout %q\nstderr %q", what, r.out, r.err)
		}
		t.Logf("%s: exit %d, stderr %s", what, r.code, r.err)
		want := []string{"changed from " + first.as.URL + " to " + second.as.URL, "mcpwire login --accept-issuer " + second.as.URL + " remote", `"issuer": "` + second.as.URL + `"`}
		for _, w := range want {
			if !strings.Contains(r.err, w) {
				t.Errorf("%s: stderr %q does not say %q", what, r.err, w)
			}
		}
		if strings.Contains(r.err, "logout") {
			t.Errorf("%s: stderr advises logout: %q", what, r.err)
		}
	}
	refused("tools", runLogin(t, nil, "tools", "--config", cfg))
	refused("login", runLogin(t, &userAtBrowser{}, "login", "--no-browser", "--config", cfg, "remote"))

	r := runLogin(t, nil, "logout", "--config", cfg, "remote")
	if r.code != 0 || !strings.Contains(r.out, "stay bound to authorization server "+first.as.URL) {
		t.Fatalf("logout: exit %d, stdout %q, stderr %q", r.code, r.out, r.err)
	}
	refused("login after logout", runLogin(t, &userAtBrowser{}, "login", "--no-browser", "--config", cfg, "remote"))
	// Accepting an issuer the server does not name moves nothing.
	refused("login accepting a third issuer", runLogin(t, &userAtBrowser{}, "login", "--no-browser", "--accept-issuer", "https://third.example", "--config", cfg, "remote"))

	second.mu.Lock()
	for _, req := range second.asRequests {
		if strings.Contains(req, secret) {
			t.Errorf("the second authorization server got the secret:\n%s", req)
		}
	}
	if len(second.secrets) != 0 {
		t.Errorf("the second authorization server got token requests with secrets %q", second.secrets)
	}
	second.mu.Unlock()

	r = runLogin(t, &userAtBrowser{}, "login", "--no-browser", "--accept-issuer", second.as.URL, "--config", cfg, "remote")
	if r.code != 0 || !strings.Contains(r.out, "authorization server "+second.as.URL) {
		t.Fatalf("login --accept-issuer: exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
	}
	second.mu.Lock()
	defer second.mu.Unlock()
	if len(second.secrets) != 1 || second.secrets[0] != secret {
		t.Errorf("after the accepted change the second authorization server got secrets %q", second.secrets)
	}
}
