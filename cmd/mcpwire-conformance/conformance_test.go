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

// All 26 client scenarios of @modelcontextprotocol/conformance@0.1.16.
// Each must pass with no baseline of expected failures.
var scenarios = []string{
	// core
	"initialize",
	"tools_call",
	"elicitation-sep1034-client-defaults",
	"sse-retry",
	"auth/metadata-default",
	"auth/metadata-var1",
	"auth/metadata-var2",
	"auth/metadata-var3",
	"auth/basic-cimd",
	"auth/scope-from-www-authenticate",
	"auth/scope-from-scopes-supported",
	"auth/scope-omitted-when-undefined",
	"auth/scope-step-up",
	"auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic",
	"auth/token-endpoint-auth-post",
	"auth/token-endpoint-auth-none",
	"auth/pre-registration",
	// backcompat
	"auth/2025-03-26-oauth-metadata-backcompat",
	"auth/2025-03-26-oauth-endpoint-fallback",
	// draft
	"auth/resource-mismatch",
	"auth/offline-access-scope",
	"auth/offline-access-not-supported",
	// extensions
	"auth/client-credentials-jwt",
	"auth/client-credentials-basic",
	"auth/cross-app-access-complete-flow",
}

// timingSensitive scenarios check how long the client waits, so they run
// alone, before the others run in parallel.
var timingSensitive = map[string]bool{"sse-retry": true}

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
			if !timingSensitive[sc] {
				t.Parallel()
			}
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
