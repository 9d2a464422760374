package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// The reference server from npm, over stdio: the cases of the CLI issue as
// a user met them there.
func TestServerEverything(t *testing.T) {
	t.Parallel()
	command, argv := interop.ServerEverything(t, "stdio")
	target := append([]string{"--", command}, argv...)
	for _, c := range []struct {
		args []string
		code int
		out  string
		err  string
	}{
		// A string parameter keeps what looks like a number.
		{a("call", "echo", "--arg", "message=1e3"), 0, "Echo: 1e3\n", ""},
		{a("call", "get-sum", "--arg", "a=1", "--arg", "b=41"), 0, "42", ""},
		// An unknown tool and a badly typed argument are usage errors
		// before any call, not the server's isError (exit 4).
		{a("call", "nosuch"), ExitUsage, "", `the server has no tool "nosuch"`},
		{a("call", "get-sum", "--arg", "a=one", "--arg", "b=2"), ExitUsage, "", "--arg a: want a number"},
		{a("tools", "get-sum"), 0, "get-sum(a: number, b: number)\nTitle: Get Sum Tool\n", ""},
		{a("tools"), 0, "get-sum                         (a: number, b: number)", ""},
	} {
		r := run(t, args(c.args, target)...)
		if r.code != c.code || !strings.Contains(r.out, c.out) || !strings.Contains(r.err, c.err) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, r.code, r.out, r.err, c.code, c.out, c.err)
		}
	}
	// --output writes an image's bytes, decoded.
	png := filepath.Join(t.TempDir(), "tiny.png")
	run(t, args(a("call", "get-tiny-image", "--output", png), target)...).wantCode(t, 0)
	b, err := os.ReadFile(png)
	if err != nil || !strings.HasPrefix(string(b), "\x89PNG") {
		t.Errorf("--output: %q..., %v", b[:min(len(b), 8)], err)
	}
}
