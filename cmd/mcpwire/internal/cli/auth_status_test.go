package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/cmd/mcpwire/internal/signin"
)

// auth status lists the readable records and warns about a damaged file
// among them, naming it; before, the damaged one vanished from the list
// without a word and the exit status was 0.
func TestAuthStatusWarnsAboutADamagedFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tokens")
	t.Setenv(signin.DirEnv, dir)
	store := &auth.FileStore{Dir: dir}
	const good = "https://good.example/mcp"
	if err := store.Save(context.Background(), &auth.Record{ServerURL: good, Issuer: "https://as.example"}); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "0123456789abcdef0123456789abcdef.json")
	if err := os.WriteFile(damaged, []byte(`{"server_url": "https://bad.example/mcp", "token": {"access_token": "at-`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runLogin(t, nil, "auth", "status")
	if r.code != 0 || !strings.Contains(r.out, good) {
		t.Fatalf("auth status: exit %d\nstdout %q\nstderr %q; want the good record listed", r.code, r.out, r.err)
	}
	if !strings.Contains(r.err, "mcpwire: warning: ") || !strings.Contains(r.err, damaged) {
		t.Errorf("stderr %q; want a warning naming %s", r.err, damaged)
	}
}
