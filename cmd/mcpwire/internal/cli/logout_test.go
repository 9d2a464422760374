package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
)

// logout of a configured server works without its client secret's
// variable: signing out only deletes what is stored, so a shell without
// the secret (or a secret already removed) must not keep the tokens on
// disk. Before, logout failed with exit 2 on the unset ${VAR}.
func TestLogoutWithoutTheClientSecretVariable(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(signin.DirEnv, dir)
	t.Setenv("MCPWIRE_TEST_LOGOUT_SECRET", "client-SECRET-for-logout")
	p := newProtected(t)
	cfg := filepath.Join(t.TempDir(), "mcpwire.json")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`{"servers": {"remote": {"url": %q, "oauth": {"clientId": "pre-registered", "clientSecret": "${MCPWIRE_TEST_LOGOUT_SECRET}"}}}}`, p.url())), 0o600)
	if r := runLogin(t, &userAtBrowser{}, "login", "--no-browser", "--config", cfg, "remote"); r.code != 0 {
		t.Fatalf("login: exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
	}
	os.Unsetenv("MCPWIRE_TEST_LOGOUT_SECRET")
	r := runLogin(t, nil, "logout", "--config", cfg, "remote")
	if r.code != 0 || !strings.Contains(r.out, `Signed out of server "remote"`) {
		t.Fatalf("logout without the secret's variable: exit %d\nstdout %q\nstderr %q", r.code, r.out, r.err)
	}
	if r := runLogin(t, nil, "auth", "status", "--json"); strings.Contains(r.out, `"valid": true`) || strings.Contains(r.out, `"refreshable": true`) {
		t.Errorf("a token is still stored after logout: %s", r.out)
	}
}
