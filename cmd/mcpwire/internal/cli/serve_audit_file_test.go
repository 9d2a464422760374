//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --audit-log treats its file as --record does (docs/security.md): an
// existing file is set to 0600 and appended to, and a symbolic link is
// refused, naming it, and what it points at is left alone. Before, a 0644
// file stayed 0644 and a link was followed.
func TestServeAuditLogIsPrivateAndNoLink(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir := t.TempDir()
	audit := filepath.Join(dir, "audit.jsonl")
	if err := os.WriteFile(audit, []byte("{\"earlier\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(audit, 0o644); err != nil { // whatever the umask
		t.Fatal(err)
	}
	// stdin is empty: serve opens the log, then the host is gone at once.
	run(t, "serve", "--stdio", "--audit-log", audit, "--", os.Args[0], ServeName).wantCode(t, ExitOK)
	info, err := os.Stat(audit)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("an existing audit log has mode %v, want 0600", info.Mode().Perm())
	}
	if b, _ := os.ReadFile(audit); !strings.HasPrefix(string(b), "{\"earlier\":1}\n") {
		t.Errorf("the earlier lines are gone: %q", b)
	}

	target := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(target, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	r := run(t, "serve", "--stdio", "--audit-log", link, "--", os.Args[0], ServeName).wantCode(t, ExitUsage)
	if !strings.Contains(r.err, link) || !strings.Contains(r.err, "symbolic link") {
		t.Errorf("stderr %q does not name the link and say why", r.err)
	}
	info, err = os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" || info.Mode().Perm() != 0o644 {
		t.Errorf("the link's target was touched: %q, mode %v", b, info.Mode().Perm())
	}
	// A dangling link creates nothing where it points.
	dangling := filepath.Join(dir, "dangling.jsonl")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	run(t, "serve", "--stdio", "--audit-log", dangling, "--", os.Args[0], ServeName).wantCode(t, ExitUsage)
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !os.IsNotExist(err) {
		t.Errorf("a dangling link's target was created: %v", err)
	}
}
