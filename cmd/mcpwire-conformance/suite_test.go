package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// buildClient builds this program into a temporary directory, as the suite
// runs it: a command line of one word (the suite splits it on spaces).
func buildClient(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mcpwire-conformance")
	if strings.ContainsRune(bin, ' ') {
		t.Fatalf("the suite splits --command on spaces; the temporary directory has one: %s", bin)
	}
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// check is one entry of the checks.json the suite writes per scenario.
type check struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description"`
	Status       string          `json:"status"`
	ErrorMessage string          `json:"errorMessage"`
	Details      json.RawMessage `json:"details"`
}

// runScenario lets the suite (node with suiteArgs) drive bin through one
// client scenario. The scenario passes when the suite exits 0 and its
// checks.json holds at least one check and none that failed or warned (a
// warning fails a run, as it does in the suite's own summary). On failure
// it reports the failed checks, the client's stderr and the suite's output.
func runScenario(t *testing.T, node string, suiteArgs []string, bin, sc string, extra ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	outDir := t.TempDir()
	args := append(append([]string{}, suiteArgs...),
		"client", "--command", bin, "--scenario", sc, "--timeout", "30000", "-o", outDir)
	args = append(args, extra...)
	cmd := exec.CommandContext(ctx, node, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	runErr := cmd.Run()

	checks, resultDir, err := readChecks(outDir)
	var bad []check
	for _, c := range checks {
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			bad = append(bad, c)
		}
	}
	if runErr == nil && err == nil && len(checks) > 0 && len(bad) == 0 {
		return
	}

	var msg strings.Builder
	fmt.Fprintf(&msg, "scenario %s failed", sc)
	switch {
	case runErr != nil && err == nil && len(checks) > 0 && len(bad) == 0:
		// The suite fails a scenario whose client exited non-zero or timed
		// out even when every check it recorded passed.
		fmt.Fprintf(&msg, " (suite: %v): its %d checks passed, but the client exited with an error or timed out", runErr, len(checks))
	case runErr != nil:
		fmt.Fprintf(&msg, " (suite: %v)", runErr)
	case err != nil:
		fmt.Fprintf(&msg, " (%v)", err)
	case len(checks) == 0:
		msg.WriteString(" (the suite recorded no checks)")
	}
	if len(bad) > 0 {
		fmt.Fprintf(&msg, "; %d of %d checks did not pass:", len(bad), len(checks))
		for _, c := range bad {
			fmt.Fprintf(&msg, "\n  %s %s (%s): %s", c.Status, c.ID, c.Name, firstNonEmpty(c.ErrorMessage, c.Description))
			if len(c.Details) > 0 && string(c.Details) != "null" && string(c.Details) != "{}" {
				fmt.Fprintf(&msg, "\n    details: %s", head(c.Details, 600))
			}
		}
	}
	t.Error(msg.String())
	if resultDir != "" {
		if b, err := os.ReadFile(filepath.Join(resultDir, "stderr.txt")); err == nil && len(b) > 0 {
			t.Logf("client stderr (last 4 KiB):\n%s", clip(b, 4096))
		}
	}
	t.Logf("suite output (last 8 KiB):\n%s", clip(out.Bytes(), 8192))
}

// readChecks finds the scenario's checks.json under outDir (the suite
// writes it to a directory named after the scenario and the time, nested
// for scenarios named like auth/x) and decodes it.
func readChecks(outDir string) (checks []check, dir string, err error) {
	var found []string
	_ = filepath.WalkDir(outDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "checks.json" {
			found = append(found, p)
		}
		return nil
	})
	if len(found) != 1 {
		return nil, "", fmt.Errorf("want one checks.json under the output directory, found %d", len(found))
	}
	b, err := os.ReadFile(found[0])
	if err != nil {
		return nil, "", err
	}
	if err := json.Unmarshal(b, &checks); err != nil {
		return nil, "", fmt.Errorf("checks.json: %v", err)
	}
	return checks, filepath.Dir(found[0]), nil
}

// clip keeps the last n bytes of b (the end of a log says what went
// wrong), marking the cut.
func clip(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return "…" + string(b[len(b)-n:])
}

// head keeps the first n bytes of b, marking the cut.
func head(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
