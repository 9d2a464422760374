package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An --output that cannot be written fails before the server starts,
// so the tool never runs (the recording shows no request at all); one
// that can be is not left behind when the command fails later.
func TestOutputFileCheckedFirst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"call", "echo", "--arg", "message=hi"},
		{"read", "mcptest://static/hello.txt"},
	} {
		rec := filepath.Join(dir, args[0]+".jsonl")
		r := run(t, append(append(args, "--output", filepath.Join(dir, "no", "such", "dir", "x"), "--record", rec), server()...)...)
		if r.code != ExitUsage || !strings.Contains(r.err, "--output: open ") {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.err)
		}
		if b, err := os.ReadFile(rec); err == nil && strings.Contains(string(b), `"method"`) {
			t.Errorf("%v: the server was reached before --output was checked:\n%s", args, b)
		}
	}
	out := filepath.Join(dir, "result")
	r := run(t, append([]string{"call", "nosuch", "--output", out}, server()...)...)
	if _, err := os.Stat(out); r.code != ExitUsage || err == nil {
		t.Errorf("failed call: exit %d, output file left behind: %v", r.code, err == nil)
	}
}
