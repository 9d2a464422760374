package manager

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mcpwire/mcpwire/config"
)

// A definition whose variable cannot be expanded is listed as failed with
// config's problem, is never dialled, and calls to it say why; the good
// definition beside it works. Disabled and lazy definitions are not
// started by Start.
func TestConfigProblemsSurfacePerServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		mcpJSON := `{"mcpServers": {
  "good":     {"command": "in-process"},
  "broken":   {"command": "in-process", "env": {"TOKEN": "${MCPWIRE_TEST_NEVER_SET}"}},
  "off":      {"command": "in-process", "enabled": false},
  "later":    {"command": "in-process", "lazy": true}
}}`
		if err := os.WriteFile(filepath.Join(dir, ".mcp.json"), []byte(mcpJSON), 0o600); err != nil {
			t.Fatal(err)
		}
		set, err := config.Load(config.LoadOptions{
			Dir: dir, UserConfigDir: filepath.Join(dir, "user"), HomeDir: filepath.Join(dir, "home"),
			Env: func(string) (string, bool) { return "", false },
			// About config problems, not trust (untrusted_test.go).
			LoadUntrusted: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		f := newFleet()
		defer f.close()
		for _, n := range []string{"good", "broken", "off", "later"} {
			f.add(n, nil)
		}
		m := New(set, &Options{Dial: f.dial, CacheDir: t.TempDir(), StartUntrusted: true})
		defer m.Close()
		snap, err := m.Start(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		states := map[string]State{}
		var order []string
		for _, s := range snap.Servers {
			states[s.Name] = s.State
			order = append(order, s.Name)
		}
		if strings.Join(order, " ") != "good broken off later" {
			t.Errorf("servers in order %v, want the file's", order)
		}
		want := map[string]State{"good": StateConnected, "broken": StateFailed, "off": StateDisabled, "later": StateLazy}
		for n, st := range want {
			if states[n] != st {
				t.Errorf("server %s: state %q, want %q", n, states[n], st)
			}
		}
		broken := snap.Server("broken")
		if broken == nil || broken.Err == nil || !strings.Contains(broken.Err.Error(), "MCPWIRE_TEST_NEVER_SET") {
			t.Fatalf("broken server's error does not name the variable: %+v", broken)
		}
		if !strings.HasSuffix(broken.Source.File, ".mcp.json") || broken.Source.Line == 0 {
			t.Errorf("broken server's source: %+v", broken.Source)
		}
		for _, n := range []string{"broken", "off", "later"} {
			if c := f.dialCount(n); c != 0 {
				t.Errorf("%s was dialled %d times by Start", n, c)
			}
		}
		_, err = m.CallServerTool(t.Context(), "broken", "echo", nil, nil)
		managerError(t, err, "broken", ErrInvalidConfig)
		managerError(t, m.Connect(t.Context(), "broken"), "broken", ErrInvalidConfig)
		_, err = m.CallServerTool(t.Context(), "off", "echo", nil, nil)
		managerError(t, err, "off", ErrDisabled)
	})
}

// A lazy server connects on its first call, through its cached tools.
func TestLazyServerConnectsOnFirstUse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cacheDir := t.TempDir()
		f := newFleet()
		defer f.close()
		f.add("lazy", nil)
		def := pipeServer("lazy")
		def.Lazy = true

		// Without a cache its tools are unknown until Connect.
		m := NewServers([]*config.Server{def}, &Options{Dial: f.dial, CacheDir: cacheDir})
		snap, _ := m.Start(t.Context())
		if len(snap.Tools) != 0 || snap.Servers[0].State != StateLazy || f.dialCount("lazy") != 0 {
			t.Fatalf("lazy server at start: %+v, %d tools", snap.Servers[0], len(snap.Tools))
		}
		if err := m.Connect(t.Context(), "lazy"); err != nil {
			t.Fatal(err)
		}
		if len(m.Tools()) == 0 {
			t.Fatal("no tools after Connect")
		}
		m.Close()

		// With one, they are listed from the start and a call connects.
		m = NewServers([]*config.Server{def}, &Options{Dial: f.dial, CacheDir: cacheDir})
		defer m.Close()
		snap, _ = m.Start(t.Context())
		if len(snap.Tools) == 0 || !snap.Tools[0].Cached || snap.Servers[0].State != StateLazy {
			t.Fatalf("lazy server with a cache: %+v", snap.Servers[0])
		}
		dials := f.dialCount("lazy")
		res, err := m.CallTool(t.Context(), "mcp__lazy__echo", map[string]any{"message": "woke"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if text(t, res) != "woke" || f.dialCount("lazy") != dials+1 {
			t.Errorf("echo %q after %d dials", text(t, res), f.dialCount("lazy")-dials)
		}
	})
}
