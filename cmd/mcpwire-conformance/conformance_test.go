package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/interop"
)

// The scenarios of @modelcontextprotocol/conformance that need no
// authorization. Each must pass with no baseline of expected failures.
var scenarios = []string{
	"initialize",
	"tools_call",
	"elicitation-sep1034-client-defaults",
	"sse-retry",
}

// TestConformance builds this program and lets the official suite drive it
// through every scenario above, exactly as the suite's README runs a client.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance suite: skipped in -short mode")
	}
	node, suiteArgs := interop.Conformance(t)
	bin := filepath.Join(t.TempDir(), "mcpwire-conformance")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, sc := range scenarios {
		t.Run(sc, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			outDir := t.TempDir()
			args := append(append([]string{}, suiteArgs...),
				"client", "--command", bin, "--scenario", sc, "--timeout", "30000", "-o", outDir)
			cmd := exec.CommandContext(ctx, node, args...)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			if err != nil || !passedAll(out.Bytes()) {
				t.Errorf("scenario %s failed (%v):\n%s", sc, err, out.String())
				dumpClientLogs(t, outDir)
			}
		})
	}
}

var passedLine = regexp.MustCompile(`Passed: (\d+)/(\d+), 0 failed, 0 warnings`)

// passedAll reports whether the suite's summary says every check passed
// with no warnings (a warning fails a run too).
func passedAll(out []byte) bool {
	m := passedLine.FindSubmatch(out)
	return m != nil && string(m[1]) == string(m[2])
}

func dumpClientLogs(t *testing.T, dir string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.txt"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil && len(b) > 0 {
			t.Logf("%s:\n%s", filepath.Base(f), b)
		}
	}
}
