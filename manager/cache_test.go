package manager

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
)

func TestCacheRoundTripAndPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache", "tools")
	c := &toolCache{dir: dir, ttl: DefaultCacheTTL}
	tools := []mcp.Tool{{Name: "echo", Description: "Echo", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	now := time.Now()
	if err := c.save("k1", "srv", tools, now); err != nil {
		t.Fatal(err)
	}
	got, savedAt, ok, warn := c.load("k1", "srv", now)
	if !ok || warn != nil || len(got) != 1 || got[0].Name != "echo" || string(got[0].InputSchema) != `{"type":"object"}` {
		t.Fatalf("load: %v %v %v", got, ok, warn)
	}
	if !savedAt.Equal(now) {
		t.Errorf("savedAt %v, want %v", savedAt, now)
	}
	fi, err := os.Stat(c.path("k1"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("cache file mode %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("cache dir mode %v, want 0700", di.Mode().Perm())
	}
	// Overwriting leaves one whole file and no temp files.
	if err := c.save("k1", "srv", nil, now); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "k1.json" {
		t.Errorf("cache dir holds %v", entries)
	}
	if got, _, ok, _ := c.load("k1", "srv", now); !ok || len(got) != 0 {
		t.Errorf("after overwrite: %v %v", got, ok)
	}
	// A file for another server (a renamed server, a hash clash) is a miss.
	if _, _, ok, warn := c.load("k1", "other", now); ok || warn == nil {
		t.Errorf("wrong server: ok=%v warn=%v", ok, warn)
	}
	// A missing file is a silent miss.
	if _, _, ok, warn := c.load("nope", "srv", now); ok || warn != nil {
		t.Errorf("missing: ok=%v warn=%v", ok, warn)
	}
}

func TestCacheExpires(t *testing.T) {
	c := &toolCache{dir: t.TempDir(), ttl: DefaultCacheTTL}
	then := time.Now()
	c.save("k", "srv", []mcp.Tool{{Name: "a"}}, then)
	if _, _, ok, _ := c.load("k", "srv", then.Add(29*24*time.Hour)); !ok {
		t.Error("a 29-day-old cache missed")
	}
	if _, _, ok, warn := c.load("k", "srv", then.Add(31*24*time.Hour)); ok || warn != nil {
		t.Errorf("a 31-day-old cache: ok=%v warn=%v", ok, warn)
	}
}

func TestDecodeCacheRejects(t *testing.T) {
	for name, data := range map[string]string{
		"not json":      `{"format":`,
		"trailing":      `{"format":"mcpwire-tools/1","server":"s","savedAt":"2025-01-01T00:00:00Z","tools":[]} {}`,
		"format":        `{"format":"other/9","server":"s","savedAt":"2025-01-01T00:00:00Z","tools":[]}`,
		"server":        `{"format":"mcpwire-tools/1","server":"t","savedAt":"2025-01-01T00:00:00Z","tools":[]}`,
		"no time":       `{"format":"mcpwire-tools/1","server":"s","tools":[]}`,
		"nameless tool": `{"format":"mcpwire-tools/1","server":"s","savedAt":"2025-01-01T00:00:00Z","tools":[{"description":"x"}]}`,
		"tools type":    `{"format":"mcpwire-tools/1","server":"s","savedAt":"2025-01-01T00:00:00Z","tools":{}}`,
	} {
		if _, err := decodeCache([]byte(data), "s"); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// A corrupt cache file is a miss with a Warning naming the file; the next
// connect replaces it with a good one.
func TestCorruptCacheIsMissAndWarning(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cacheDir := t.TempDir()
		def := pipeServer("a")
		path := filepath.Join(cacheDir, cacheKey(def)+".json")
		if err := os.WriteFile(path, []byte(`{"format":"mcpwire-tools/1","tools":[{`), 0o600); err != nil {
			t.Fatal(err)
		}
		f := newFleet()
		defer f.close()
		f.add("a", nil)
		f.set(func(f *fleet) { f.delay["a"] = time.Second })
		m := NewServers([]*config.Server{def}, &Options{Dial: f.dial, CacheDir: cacheDir})
		defer m.Close()
		log := record(m)
		snap, _ := m.Start(t.Context())
		if len(snap.Tools) != 0 {
			t.Errorf("tools from a corrupt cache: %v", toolNames(snap.Tools))
		}
		w := log.waitFor(t, "a", Warning, 1)
		if !strings.Contains(w.Err.Error(), path) {
			t.Errorf("warning does not name the file: %v", w.Err)
		}
		log.waitFor(t, "a", Connected, 1)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := decodeCache(data, "a")
		if err != nil || len(cf.Tools) == 0 {
			t.Errorf("cache after connecting: %v", err)
		}
	})
}

// The cache holds tool lists, never the secrets of a definition.
func TestCacheHoldsNoSecrets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cacheDir := t.TempDir()
		def := pipeServer("a")
		def.Env = map[string]string{"API_TOKEN": "sekrit-env-value"}
		def.Headers = map[string]string{"Authorization": "Bearer sekrit-header"}
		f := newFleet()
		defer f.close()
		f.add("a", nil)
		m := NewServers([]*config.Server{def}, &Options{Dial: f.dial, CacheDir: cacheDir})
		m.Start(t.Context())
		m.Close()
		data, err := os.ReadFile(filepath.Join(cacheDir, cacheKey(def)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "sekrit") {
			t.Error("a secret reached the cache file")
		}
	})
}

func TestCacheKey(t *testing.T) {
	raw := json.RawMessage(`{"command":"npx","args":["${workspaceFolder}"]}`)
	def := func(file, section, scope string) *config.Server {
		return &config.Server{Name: "s", Type: config.TypeStdio, Command: "npx", Raw: raw,
			Source: config.Source{File: file, Section: section, Scope: scope}}
	}
	projA := cacheKey(def("/p/a/.mcp.json", "mcpServers", "project"))
	projB := cacheKey(def("/p/b/.mcp.json", "mcpServers", "project"))
	if projA == projB {
		t.Error("two projects' identical definitions share a cache key")
	}
	if cacheKey(def("/p/a/.mcp.json", "mcpServers", "project")) != projA {
		t.Error("the key is not stable")
	}
	localA := cacheKey(def("/home/u/.claude.json", `projects["/p/a"].mcpServers`, "user"))
	localB := cacheKey(def("/home/u/.claude.json", `projects["/p/b"].mcpServers`, "user"))
	if localA == localB {
		t.Error("Claude's per-project sections share a cache key")
	}
	// Expanded values are not part of the key (config's Raw is
	// unexpanded): a rotated secret keeps it.
	a, b := def("/u/mcpwire.json", "servers", "user"), def("/u/mcpwire.json", "servers", "user")
	b.Env = map[string]string{"TOKEN": "rotated"}
	if cacheKey(a) != cacheKey(b) {
		t.Error("an expanded value changed the key")
	}
	// An edited definition is a new key.
	b.Raw = json.RawMessage(`{"command":"npx","args":["other"]}`)
	if cacheKey(a) == cacheKey(b) {
		t.Error("an edited definition kept its key")
	}
	// A relative file name is made absolute.
	wd, _ := os.Getwd()
	if cacheKey(def("rel.json", "servers", "explicit")) != cacheKey(def(filepath.Join(wd, "rel.json"), "servers", "explicit")) {
		t.Error("relative and absolute names of one file give different keys")
	}
}

func FuzzDecodeCache(f *testing.F) {
	good, _ := json.Marshal(&cacheFile{Format: cacheFormat, Server: "s", SavedAt: time.Unix(1700000000, 0).UTC(),
		Tools: []mcp.Tool{{Name: "echo", Description: "d", InputSchema: json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}}}`),
			Annotations: &mcp.ToolAnnotations{Title: "Echo"}}}})
	f.Add(good)
	f.Add([]byte(`{"format":"mcpwire-tools/1","server":"s","savedAt":"2025-01-01T00:00:00Z","tools":[]}`))
	f.Add([]byte(`{"format":"mcpwire-tools/1","tools":[{`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cf, err := decodeCache(data, "s")
		if err != nil {
			return
		}
		if cf.Server != "s" || cf.Format != cacheFormat || cf.SavedAt.IsZero() {
			t.Fatalf("accepted %+v", cf)
		}
		for _, tool := range cf.Tools {
			if tool.Name == "" {
				t.Fatal("accepted a tool without a name")
			}
		}
	})
}
