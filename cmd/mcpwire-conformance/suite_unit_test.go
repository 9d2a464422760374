package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadChecks covers how the runner finds a scenario's results: the
// suite nests scenarios named like auth/x one directory deeper, and a run
// that wrote no checks.json (or, by mistake, two) must not pass.
func TestReadChecks(t *testing.T) {
	out := t.TempDir()
	if _, _, err := readChecks(out); err == nil {
		t.Error("readChecks of an empty directory: no error")
	}

	dir := filepath.Join(out, "auth", "dpop-2026-12-03T12-00-00-000Z")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	json := `[{"id":"a","name":"A","status":"SUCCESS"},` +
		`{"id":"b","name":"B","description":"d","status":"FAILURE","errorMessage":"no DPoP header"}]`
	if err := os.WriteFile(filepath.Join(dir, "checks.json"), []byte(json), 0o600); err != nil {
		t.Fatal(err)
	}
	checks, got, err := readChecks(out)
	if err != nil {
		t.Fatal(err)
	}
	if got != dir || len(checks) != 2 || checks[1].Status != "FAILURE" || checks[1].ErrorMessage != "no DPoP header" {
		t.Errorf("readChecks = %+v in %s, want the two checks in %s", checks, got, dir)
	}

	if err := os.WriteFile(filepath.Join(out, "checks.json"), []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := readChecks(out); err == nil {
		t.Error("readChecks with two checks.json files: no error")
	}
}
