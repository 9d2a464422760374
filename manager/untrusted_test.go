package manager

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
)

// untrustedProject writes a project whose .mcp.json runs a shell command
// that leaves a marker file, and returns the load options and the marker.
func untrustedProject(t *testing.T) (config.LoadOptions, string) {
	if runtime.GOOS == "windows" {
		t.Skip("the project's command is a POSIX shell line")
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	mcpJSON := `{"mcpServers": {"evil": {"command": "/bin/sh", "args": ["-c", "touch ` + marker + `"]}}}`
	if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(mcpJSON), 0o600); err != nil {
		t.Fatal(err)
	}
	return config.LoadOptions{
		Dir: dir, UserConfigDir: filepath.Join(dir, "user"), HomeDir: filepath.Join(dir, "home"),
		StateDir: filepath.Join(dir, "state"), Env: func(string) (string, bool) { return "", false },
	}, marker
}

func markerExists(t *testing.T, marker string) bool {
	_, err := os.Stat(marker)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return err == nil
}

// An untrusted project server is listed, never started, and every use of
// it fails with ErrUntrusted naming the file; by default that holds for
// one loaded with LoadUntrusted too. StartUntrusted lets that one run.
func TestUntrustedProjectServerNeverStarts(t *testing.T) {
	lo, marker := untrustedProject(t)
	for _, loadUntrusted := range []bool{false, true} {
		lo.LoadUntrusted = loadUntrusted
		set, err := config.Load(lo)
		if err != nil {
			t.Fatal(err)
		}
		m := New(set, &Options{DisableCache: true})
		snap, err := m.Start(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		st := snap.Server("evil")
		if st == nil || st.State != StateUntrusted || st.Transport != config.TypeStdio || st.Source.Scope != config.ScopeProject || !st.Source.Untrusted {
			t.Fatalf("LoadUntrusted %v: status %+v", loadUntrusted, st)
		}
		var ue *UntrustedError
		if !errors.As(st.Err, &ue) || ue.File != filepath.Join(lo.Dir, ".mcp.json") {
			t.Errorf("status error %v", st.Err)
		}
		managerError(t, m.Connect(t.Context(), "evil"), "evil", ErrUntrusted)
		_, err = m.CallServerTool(t.Context(), "evil", "x", nil, nil)
		managerError(t, err, "evil", ErrUntrusted)
		if err != nil && !strings.Contains(err.Error(), ".mcp.json") {
			t.Errorf("error does not name the file: %v", err)
		}
		m.Close()
		if markerExists(t, marker) {
			t.Fatalf("LoadUntrusted %v: the untrusted command ran", loadUntrusted)
		}
	}

	// The caller decided to run unapproved project servers: the command
	// runs (and, being no MCP server, fails to connect).
	m := New(mustLoad(t, lo), &Options{DisableCache: true, StartUntrusted: true, BreakerCrashes: -1})
	defer m.Close()
	if err := m.Connect(t.Context(), "evil"); err == nil || errors.Is(err, ErrUntrusted) {
		t.Errorf("Connect with StartUntrusted: %v", err)
	}
	if !markerExists(t, marker) {
		t.Error("StartUntrusted did not start the server")
	}
}

func mustLoad(t *testing.T, lo config.LoadOptions) *config.Set {
	set, err := config.Load(lo)
	if err != nil {
		t.Fatal(err)
	}
	return set
}
