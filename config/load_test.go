package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// testDirs is a project directory, a user config directory and a home
// directory, all fresh and empty.
type testDirs struct{ project, userConfig, home string }

func newTestDirs(t *testing.T) testDirs {
	root := t.TempDir()
	d := testDirs{filepath.Join(root, "proj"), filepath.Join(root, "config"), filepath.Join(root, "home")}
	for _, dir := range []string{d.project, d.userConfig, d.home} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// opts loads from the test's directories. Project files load without an
// approval: these tests are about discovery and merging (trust_test.go
// is about trust).
func (d testDirs) opts(env map[string]string) LoadOptions {
	return LoadOptions{Dir: d.project, UserConfigDir: d.userConfig, HomeDir: d.home, Env: envOf(env), LoadUntrusted: true}
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLocations(t *testing.T) {
	d := newTestDirs(t)
	var got []string
	for _, l := range Locations(d.opts(nil)) {
		got = append(got, l.Scope+" "+string(l.Format)+" "+l.File)
	}
	want := []string{
		"project mcpwire " + filepath.Join(d.project, "mcpwire.json"),
		"project mcpServers " + filepath.Join(d.project, ".mcp.json"),
		"project mcpServers " + filepath.Join(d.project, "mcp.json"),
		"project vscode " + filepath.Join(d.project, ".vscode", "mcp.json"),
		"project mcpServers " + filepath.Join(d.project, ".cursor", "mcp.json"),
		"project gemini " + filepath.Join(d.project, ".gemini", "settings.json"),
		"project zed " + filepath.Join(d.project, ".zed", "settings.json"),
		"user mcpwire " + filepath.Join(d.userConfig, "mcpwire", "mcpwire.json"),
		"user mcpServers " + filepath.Join(d.home, ".cursor", "mcp.json"),
		"user vscode " + filepath.Join(d.userConfig, "Code", "User", "mcp.json"),
		"user mcpServers " + filepath.Join(d.home, ".codeium", "windsurf", "mcp_config.json"),
		"user claude " + filepath.Join(d.home, ".claude.json"),
		"user gemini " + filepath.Join(d.home, ".gemini", "settings.json"),
		"user codex " + filepath.Join(d.home, ".codex", "config.toml"),
		"user claudeDesktop " + filepath.Join(d.userConfig, "Claude", "claude_desktop_config.json"),
	}
	if runtime.GOOS == "darwin" {
		want = append(want, "user zed "+filepath.Join(d.home, ".config", "zed", "settings.json"))
	} else {
		want = append(want, "user zed "+filepath.Join(d.userConfig, "zed", "settings.json"))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Run from the home directory: ~/.cursor/mcp.json is both a project
	// and a user file, and is read once, as the user's own.
	o := d.opts(nil)
	o.Dir = d.home
	n := 0
	for _, l := range Locations(o) {
		if l.File == filepath.Join(d.home, ".cursor", "mcp.json") {
			n++
			if l.Scope != ScopeUser {
				t.Errorf("scope %q", l.Scope)
			}
		}
	}
	if n != 1 {
		t.Errorf("~/.cursor/mcp.json listed %d times", n)
	}

	// CODEX_HOME moves Codex's file, as it does for Codex.
	o = d.opts(map[string]string{"CODEX_HOME": filepath.Join(d.home, "codex-elsewhere")})
	found := false
	for _, l := range Locations(o) {
		if l.Format == FormatCodex {
			found = l.File == filepath.Join(d.home, "codex-elsewhere", "config.toml")
		}
	}
	if !found {
		t.Errorf("CODEX_HOME not followed: %v", Locations(o))
	}
}

// TestLoadDiscoveryOrder puts a server "shared" in every location, plus
// one server unique to each, and checks the order, the winner and the
// shadowed list.
func TestLoadDiscoveryOrder(t *testing.T) {
	d := newTestDirs(t)
	mcpServers := func(tag string) string {
		return `{"mcpServers": {"shared": {"command": "` + tag + `"}, "` + tag + `": {"command": "` + tag + `"}}}`
	}
	writeFile(t, filepath.Join(d.project, "mcpwire.json"), `{"servers": {"shared": {"command": "p-mcpwire"}, "p-mcpwire": {"command": "x"}}}`)
	writeFile(t, filepath.Join(d.project, ".mcp.json"), mcpServers("p-claude"))
	writeFile(t, filepath.Join(d.project, "mcp.json"), mcpServers("p-mcp"))
	writeFile(t, filepath.Join(d.project, ".vscode", "mcp.json"), "{\n// jsonc\n\"servers\": {\"shared\": {\"command\": \"p-vscode\"}, \"p-vscode\": {\"command\": \"x\"},},}")
	writeFile(t, filepath.Join(d.project, ".cursor", "mcp.json"), mcpServers("p-cursor"))
	writeFile(t, filepath.Join(d.userConfig, "mcpwire", "mcpwire.json"), mcpServers("u-mcpwire"))
	writeFile(t, filepath.Join(d.home, ".cursor", "mcp.json"), mcpServers("u-cursor"))
	writeFile(t, filepath.Join(d.home, ".codeium", "windsurf", "mcp_config.json"), `{"mcpServers": {"shared": {"serverUrl": "https://w.example/mcp"}, "u-windsurf": {"serverUrl": "https://w.example/mcp"}}}`)
	writeFile(t, filepath.Join(d.home, ".claude.json"), `{"projects": {"`+filepath.ToSlash(d.project)+`": {"mcpServers": {"u-claude-local": {"command": "x"}}}}, "mcpServers": `+strings.TrimPrefix(strings.TrimSuffix(mcpServers("u-claude"), "}"), `{"mcpServers": `)+`}`)

	set, err := Load(d.opts(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Problems) != 0 {
		t.Fatalf("problems: %v", set.Problems)
	}
	var names []string
	for _, s := range set.Servers {
		names = append(names, s.Name)
	}
	// The first user-level "shared" stays reachable as "user:shared".
	wantNames := []string{"shared", "p-mcpwire", "p-claude", "p-mcp", "p-vscode", "p-cursor", "user:shared", "u-mcpwire", "u-cursor", "u-windsurf", "u-claude-local", "u-claude"}
	if !reflect.DeepEqual(names, wantNames) {
		t.Errorf("servers %v\nwant    %v", names, wantNames)
	}
	shared := set.Lookup("shared")
	if shared.Command != "p-mcpwire" || shared.Source.Scope != "project" || shared.Source.File != filepath.Join(d.project, "mcpwire.json") {
		t.Errorf("shared from %+v", shared.Source)
	}
	if u := set.Lookup("user:shared"); u.Command != "u-mcpwire" || u.Source.Scope != ScopeUser {
		t.Errorf("user:shared is %s from %+v", u.Command, u.Source)
	}
	var shadowed []string
	for _, s := range set.Shadowed {
		if s.Name != "shared" && s.Name != "user:shared" {
			t.Errorf("shadowed %q", s.Name)
		}
		shadowed = append(shadowed, s.Command+s.URL+"@"+s.Source.Scope)
	}
	wantShadowed := []string{"p-claude@project", "p-mcp@project", "p-vscode@project", "p-cursor@project", "u-cursor@user", "https://w.example/mcp@user", "u-claude@user"}
	if !reflect.DeepEqual(shadowed, wantShadowed) {
		t.Errorf("shadowed %v\nwant     %v", shadowed, wantShadowed)
	}
	if len(set.Files) != 9 {
		t.Errorf("files read: %v", set.Files)
	}
	if set.Lookup("nope") != nil || set.Err() != nil {
		t.Error("Lookup of an unknown name, or Err with no problems")
	}
	if s := set.Lookup("u-claude-local"); s.Source.Format != FormatClaude || !strings.HasPrefix(s.Source.Section, "projects[") {
		t.Errorf("claude local source %+v", s.Source)
	}
}

func TestLoadInvalidEntriesDoNotStopOthers(t *testing.T) {
	d := newTestDirs(t)
	writeFile(t, filepath.Join(d.project, ".mcp.json"), `{"mcpServers": {
		"github": {"command": "npx", "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
		"ok1": {"command": "a"},
		"broken": {"type": "carrier-pigeon"},
		"ok2": {"url": "https://h.example/mcp"}
	}}`)
	writeFile(t, filepath.Join(d.project, ".cursor", "mcp.json"), `{"mcpServers": {`) // syntax error: whole file
	writeFile(t, filepath.Join(d.home, ".cursor", "mcp.json"), `{"mcpServers": {"github": {"command": "user-github"}, "ok3": {"command": "c"}}}`)

	set, err := Load(d.opts(nil))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range set.Servers {
		names = append(names, s.Name)
	}
	if want := []string{"ok1", "ok2", "user:github", "ok3"}; !reflect.DeepEqual(names, want) {
		t.Errorf("servers %v, want %v", names, want)
	}
	// The project's broken github claims the name: the user-level one is
	// not silently used instead, and stays reachable as user:github.
	if u := set.Lookup("user:github"); u == nil || u.Command != "user-github" || len(set.Shadowed) != 0 {
		t.Errorf("user:github %v, shadowed %v", u, set.Shadowed)
	}
	wantProblem(t, set.Problems, ".mcp.json:2:", `server "github"`, "env.GITHUB_TOKEN", `"GITHUB_TOKEN" is not set`)
	wantProblem(t, set.Problems, `server "broken"`, "type:", "carrier-pigeon")
	wantProblem(t, set.Problems, filepath.Join(".cursor", "mcp.json")+":1:", "invalid JSON")
	err = set.Err()
	if err == nil || !strings.Contains(err.Error(), "carrier-pigeon") {
		t.Errorf("Err() = %v", err)
	}
	var p Problem
	if !errors.As(err, &p) {
		t.Error("Err() does not unwrap to a Problem")
	}
}

func TestLoadExplicitFiles(t *testing.T) {
	d := newTestDirs(t)
	writeFile(t, filepath.Join(d.project, ".mcp.json"), `{"mcpServers": {"discovered": {"command": "x"}}}`)
	a := filepath.Join(d.project, "a.json")
	b := filepath.Join(d.project, "other", ".vscode", "mcp.json")
	writeFile(t, a, `{"servers": {"one": {"command": "x"}}, "mcpServers": {"two": {"command": "y"}}}`)
	writeFile(t, b, "{\"servers\": {\"one\": {\"command\": \"z\"}, \"three\": {\"url\": \"https://h\"}}, // c\n}")
	o := d.opts(nil)
	o.Files = []string{a, b}
	set, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range set.Servers {
		got = append(got, s.Name+":"+string(s.Source.Format)+":"+s.Source.Scope)
	}
	if want := []string{"one:mcpwire:explicit", "two:mcpwire:explicit", "three:vscode:explicit"}; !reflect.DeepEqual(got, want) {
		t.Errorf("servers %v, want %v", got, want)
	}
	if len(set.Shadowed) != 1 || set.Shadowed[0].Command != "z" {
		t.Errorf("shadowed %v", set.Shadowed)
	}

	o.Files = []string{a, filepath.Join(d.project, "missing.json")}
	set, err = Load(o)
	if set != nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing explicit file: set %v, err %v", set, err)
	}
}

func TestLoadUnreadableFile(t *testing.T) {
	d := newTestDirs(t)
	// A directory where a file belongs cannot be read, whoever runs the
	// test (file modes do not stop root).
	if err := os.MkdirAll(filepath.Join(d.project, ".mcp.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(d.project, "mcp.json"), `{"mcpServers": {"ok": {"command": "x"}}}`)
	// A file where a directory belongs is simply absent.
	writeFile(t, filepath.Join(d.project, ".vscode"), "not a directory")
	set, err := Load(d.opts(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Servers) != 1 || len(set.Problems) != 1 {
		t.Fatalf("servers %v problems %v", set.Servers, set.Problems)
	}
	p := set.Problems[0]
	if p.File != filepath.Join(d.project, ".mcp.json") || !strings.HasPrefix(p.Msg, "cannot read: ") || strings.Count(p.Error(), ".mcp.json") != 1 {
		t.Errorf("problem %q", p.Error())
	}
}

func TestLoadDefaults(t *testing.T) {
	d := newTestDirs(t)
	writeFile(t, filepath.Join(d.project, ".mcp.json"), `{"mcpServers": {"s": {"command": "${MCPWIRE_CONFIG_TEST_BIN}", "cwd": "${workspaceFolder}/x"}}}`)
	t.Setenv("MCPWIRE_CONFIG_TEST_BIN", "from-process-env")
	t.Chdir(d.project)
	set, err := Load(LoadOptions{UserConfigDir: d.userConfig, HomeDir: d.home, LoadUntrusted: true})
	if err != nil {
		t.Fatal(err)
	}
	s := set.Lookup("s")
	if s == nil {
		t.Fatalf("problems %v", set.Problems)
	}
	if s.Command != "from-process-env" {
		t.Errorf("default Env: command %q", s.Command)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(wd, "x"); s.Cwd != want {
		t.Errorf("default Dir: cwd %q, want %q", s.Cwd, want)
	}
}

func TestLoadRelativeDirAndCwd(t *testing.T) {
	d := newTestDirs(t)
	writeFile(t, filepath.Join(d.project, ".mcp.json"), `{"mcpServers": {"s": {"command": "x", "cwd": "tools"}, "abs": {"command": "x", "cwd": "/opt/srv"}}}`)
	t.Chdir(filepath.Dir(d.project))
	o := d.opts(nil)
	o.Dir = filepath.Base(d.project) // relative
	set, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	s := set.Lookup("s")
	if s == nil || !filepath.IsAbs(s.Cwd) || filepath.Base(s.Cwd) != "tools" || filepath.Base(filepath.Dir(s.Cwd)) != "proj" {
		t.Errorf("relative cwd resolved to %v", s)
	}
	if a := set.Lookup("abs"); a == nil || a.Cwd != "/opt/srv" {
		t.Errorf("absolute cwd changed: %v", a)
	}
}

// TestLoadExplicitFileWithErrorsFails: a file the user named is not
// skipped with a warning when it is broken (mcpwire --config bad.json
// must not pass a CI check); a discovered one is, unless Strict.
func TestLoadExplicitFileWithErrorsFails(t *testing.T) {
	d := newTestDirs(t)
	bad := filepath.Join(d.project, "bad.json")
	writeFile(t, bad, "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\"},\n}")
	good := filepath.Join(d.project, "good.json")
	writeFile(t, good, `{"mcpServers": {"ok": {"command": "x"}, "odd": {"command": "y", "color": "blue"}}}`)

	o := d.opts(nil)
	o.Files = []string{good, bad}
	set, err := Load(o)
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("explicit bad file: err = %v, want ErrInvalid", err)
	}
	if !strings.Contains(err.Error(), "bad.json:3:") || strings.Contains(err.Error(), "good.json") {
		t.Errorf("error %q: want bad.json's line, and not good.json's warning", err)
	}
	var p Problem
	if !errors.As(err, &p) || p.File != bad {
		t.Errorf("errors.As Problem: %+v", p)
	}
	if set == nil || set.Lookup("ok") == nil {
		t.Errorf("set %v: want the valid servers as well", set)
	}

	// Warnings alone (an unknown field) do not fail an explicit file.
	o.Files = []string{good}
	if _, err := Load(o); err != nil {
		t.Errorf("explicit file with warnings only: %v", err)
	}

	// A discovered broken file stays a Problem, unless Strict.
	writeFile(t, filepath.Join(d.project, ".mcp.json"), `{"mcpServers": {"s": {"type": "carrier-pigeon"}}}`)
	o = d.opts(nil)
	set, err = Load(o)
	if err != nil || len(set.Problems) != 1 {
		t.Fatalf("discovered: err %v, problems %v", err, set.Problems)
	}
	o.Strict = true
	set, err = Load(o)
	if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), ".mcp.json:1:") || set == nil {
		t.Errorf("strict: set %v err %v", set, err)
	}
}

// TestLoadNewHosts: the files of Gemini CLI, Zed, Codex and Claude Desktop
// are found where the hosts keep them, project files before user files.
func TestLoadNewHosts(t *testing.T) {
	d := newTestDirs(t)
	writeFile(t, filepath.Join(d.project, ".gemini", "settings.json"), `{"mcpServers": {"shared": {"command": "gemini-project"}}}`)
	writeFile(t, filepath.Join(d.project, ".zed", "settings.json"), `{"context_servers": {"zp": {"command": {"path": "zed-project"}}}}`)
	writeFile(t, filepath.Join(d.home, ".gemini", "settings.json"), `{"mcpServers": {"shared": {"command": "gemini-user"}, "gu": {"url": "https://h.example/sse"}}}`)
	writeFile(t, filepath.Join(d.home, ".codex", "config.toml"), "[mcp_servers.cx]\ncommand = \"codex-user\"\n")
	writeFile(t, filepath.Join(d.userConfig, "Claude", "claude_desktop_config.json"), `{"mcpServers": {"cd": {"command": "desktop"}}}`)
	zed := filepath.Join(d.userConfig, "zed", "settings.json")
	if runtime.GOOS == "darwin" {
		zed = filepath.Join(d.home, ".config", "zed", "settings.json")
	}
	writeFile(t, zed, `{"context_servers": {"zu": {"url": "https://z.example/mcp"}}}`)

	set, err := Load(d.opts(nil))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range set.Servers {
		got = append(got, s.Name+":"+string(s.Source.Format)+":"+s.Source.Scope+":"+s.Type)
	}
	want := []string{
		"shared:gemini:project:stdio", "zp:zed:project:stdio",
		"user:shared:gemini:user:stdio", "gu:gemini:user:sse", "cx:codex:user:stdio", "cd:claudeDesktop:user:stdio", "zu:zed:user:auto",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("servers %v, want %v", got, want)
	}
	if u := set.Lookup("user:shared"); u.Command != "gemini-user" || len(set.Shadowed) != 0 || len(set.Problems) != 0 {
		t.Errorf("user:shared %v shadowed %v problems %v", u, set.Shadowed, set.Problems)
	}
}
