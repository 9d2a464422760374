package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// server-filesystem from npm over stdio, as a user meets it: the listing's
// signature column (uncut, since stdout is not a terminal), a tool's
// detail, a call, and the usage errors that come before any call.
func TestServerFilesystem(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("first line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	command, argv := interop.ServerFilesystem(t, root)
	target := append([]string{"--", command}, argv...)
	// The root is a new temporary directory on every run; the server names
	// it in its results and errors. EvalSymlinks: the server reports the
	// resolved path, which differs from TempDir's where /tmp is a link.
	resolved, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	normalise := strings.NewReplacer(resolved, "$ROOT", root, "$ROOT").Replace
	file := filepath.Join(root, "notes.txt")
	got := transcript(t, target, normalise,
		a("tools"),
		a("tools", "read_text_file"),
		a("call", "read_text_file", "--arg", "path="+file, "--arg", "head=1"),
		a("call", "read_text_file", "--json", "--arg", "path="+file),
		// An unknown tool and a badly typed --arg are usage errors found
		// in the tool list, before any call.
		a("call", "read_txt_file", "--arg", "path="+file),
		a("call", "read_text_file", "--arg", "path="+file, "--arg", "head=first"),
		// This server's own -32602 (input validation) comes back as a
		// tool result with isError, so it is exit 4, not 5.
		a("call", "read_text_file", "--args-json", `{"path":3}`),
		// A path outside the root is the tool's error: exit 4.
		a("call", "read_text_file", "--arg", "path=/nonexistent/outside"),
	)
	wantExits(t, got, 0, 0, 0, 0, ExitUsage, ExitUsage, ExitToolError, ExitToolError)
	golden(t, "filesystem.golden", got)
}
