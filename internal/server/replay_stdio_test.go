package server

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenReplay(t *testing.T) {
	dir := t.TempDir()
	if _, err := OpenReplay(filepath.Join(dir, "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.jsonl")
	good := `{"time":"2026-12-03T09:00:00Z","direction":"send","transport":"stdio","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}` + "\n" +
		`{"time":"2026-12-03T09:00:01Z","direction":"receive","transport":"stdio","message":{"jsonrpc":"2.0","id":1,"result":{}}}` + "\n"
	if err := os.WriteFile(bad, []byte(good+"not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenReplay(bad); err == nil || !strings.Contains(err.Error(), "bad.jsonl") || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("bad line: %v", err)
	}
	ok := filepath.Join(dir, "ok.jsonl")
	if err := os.WriteFile(ok, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReplay(ok)
	if err != nil {
		t.Fatal(err)
	}
	// A closed replay serves nothing, not even on stdio.
	r.Close()
	if err := r.ServeStdio(context.Background()); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Errorf("ServeStdio after Close: %v", err)
	}
}
