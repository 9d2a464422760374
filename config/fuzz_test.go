package config

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fuzzSecret is what every variable and input resolves to while fuzzing:
// it must never show up in a problem unless the input itself holds it.
const fuzzSecret = "Zq7-fuzz-secret-Zq7"

// FuzzParse feeds arbitrary documents to every format and checks that
// Parse never panics, never leaks a resolved value into a problem, and
// only returns servers that are valid.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "golden", "*", "*"))
	more, _ := filepath.Glob(filepath.Join("testdata", "golden", "*", "*", "*"))
	for _, name := range append(seeds, more...) {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, uint8(0))
		}
	}
	for i, s := range []string{
		`{"mcpServers": {"a": {"command": "${X}", "args": ["${Y:-${Z}}", "$${lit}"], "env": {"K": "${env:K}"}}}}`,
		`{"servers": {"a": {"url": "https://${H}/p?k=${K}", "headers": {"Authorization": "Bearer ${input:tok}"}}}, "inputs": [{"id": "tok"}]}`,
		`{"mcpServers": {"a": {"url": "ftp://u:${P}@h/${P}", "timeout": "1h", "enabledTools": ["a*"]}}}`,
		`{"projects": {"/p": {"mcpServers": {"a": {"command": "x"}}}}, "mcpServers": {"b": {"serverUrl": "http://h"}}}`,
		vscodeSample,
		"{\"mcpServers\": {\"a\": {\"command\": \"x\" /* c */,},},}",
	} {
		f.Add([]byte(s), uint8(i))
	}
	formats := []Format{FormatMCPServers, FormatVSCode, FormatMCPWire, FormatClaude}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		checkFuzzedParse(t, data, formats[int(which)%len(formats)])
	})
}

// FuzzHostSettings feeds arbitrary documents to the formats of the hosts
// whose settings files hold servers among much else: Gemini CLI, Zed and
// Claude Desktop.
func FuzzHostSettings(f *testing.F) {
	for i, name := range []string{
		"gemini/.gemini/settings.json",
		"zed/.zed/settings.json",
		"claude-desktop/claude_desktop_config.json",
	} {
		if data, err := os.ReadFile(filepath.Join("testdata", "golden", filepath.FromSlash(name))); err == nil {
			f.Add(data, uint8(i))
		}
	}
	for i, s := range []string{
		`{"mcpServers": {"a": {"url": "http://h/$X", "env": {"A": "$B$C"}, "includeTools": ["x*"], "excludeTools": []}}}`,
		`{"context_servers": {"a": {"command": {"path": "p", "args": ["$X"], "env": null}}, "b": {"source": "extension"}}}`,
		`{"context_servers": {"a": {"command": {"path": 1, "bogus": 2}, "args": "x"}}}`,
		`{"mcpServers": {"a": {"command": "x"}}, "globalShortcut": "x"}`,
	} {
		f.Add([]byte(s), uint8(i))
	}
	formats := []Format{FormatGemini, FormatZed, FormatClaudeDesktop}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		checkFuzzedParse(t, data, formats[int(which)%len(formats)])
	})
}

// FuzzCodex feeds arbitrary TOML to the Codex format: no panic, problems
// that name a place and leak no variable's value, only valid servers.
func FuzzCodex(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "golden", "codex", ".codex", "config.toml")); err == nil {
		f.Add(data)
	}
	for _, s := range []string{
		"[mcp_servers.a]\ncommand = \"x\"\nenv_vars = [\"A\", \"B\"]\n",
		"[mcp_servers.b]\nurl = \"https://h/mcp\"\nbearer_token_env_var = \"T\"\nenv_http_headers = { X = \"Y\" }\n",
		"mcp_servers.c.command = \"x\"\nmcp_servers.c.tool_timeout_sec = inf\n",
		"[[mcp_servers]]\nname = \"x\"\n",
		"mcp_servers = 3\n",
		"[mcp_servers.d]\ncommand = \"x\"\n[mcp_servers.d]\n",
		"[mcp_servers.e]\ncommand = 1979-05-27\nargs = [nan, 07:32:00, [1], { a = 1979-05-27T07:32:00Z }]\n[[mcp_servers.e.t]]\nq = -inf\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFuzzedParse(t, data, FormatCodex)
	})
}

// checkFuzzedParse parses data as format with every variable set to
// fuzzSecret and checks what comes back.
func checkFuzzedParse(t *testing.T, data []byte, format Format) {
	opts := LoadOptions{
		Dir:     "/p",
		HomeDir: "/home/dev",
		Env:     func(string) (string, bool) { return fuzzSecret, true },
	}
	servers, problems := Parse(data, "f.json", format, opts)
	leakable := !bytes.Contains(data, []byte(fuzzSecret))
	for _, p := range problems {
		e := p.Error()
		if e == "" || p.Msg == "" {
			t.Fatalf("empty problem %+v", p)
		}
		if leakable && strings.Contains(e, fuzzSecret) {
			t.Fatalf("problem leaks a resolved value: %s", e)
		}
		if p.Line < 0 || p.Col < 0 {
			t.Fatalf("problem at a negative position: %+v", p)
		}
	}
	// Codex takes values literally, so "${" may stand in them.
	literal := format == FormatCodex || bytes.Contains(data, []byte("$${"))
	for _, s := range servers {
		checkFuzzedServer(t, s, literal)
	}
}

func checkFuzzedServer(t *testing.T, s *Server, literalEscape bool) {
	t.Helper()
	if strings.TrimSpace(s.Name) == "" {
		t.Fatalf("server with empty name")
	}
	if !json.Valid(s.Raw) {
		t.Fatalf("%s: Raw is not JSON: %q", s.Name, s.Raw)
	}
	if s.OAuth != nil && !json.Valid(s.OAuth) {
		t.Fatalf("%s: OAuth is not JSON", s.Name)
	}
	expanded := append([]string{s.Command, s.URL, s.Cwd}, s.Args...)
	for _, v := range s.Env {
		expanded = append(expanded, v)
	}
	for _, v := range s.Headers {
		expanded = append(expanded, v)
	}
	for _, v := range expanded {
		if strings.Contains(v, "${") && !literalEscape {
			t.Fatalf("%s: unexpanded reference in %q", s.Name, v)
		}
	}
	switch s.Type {
	case TypeStdio:
		if strings.TrimSpace(s.Command) == "" || s.URL != "" || s.Headers != nil {
			t.Fatalf("%s: bad stdio server %+v", s.Name, s)
		}
	case TypeHTTP, TypeSSE, TypeAuto:
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || s.Command != "" || s.Args != nil || s.Env != nil {
			t.Fatalf("%s: bad remote server %+v", s.Name, s)
		}
		for k, v := range s.Headers {
			if !validHeaderName(k) || strings.ContainsAny(v, "\r\n\x00") {
				t.Fatalf("%s: bad header %q", s.Name, k)
			}
		}
	default:
		t.Fatalf("%s: type %q", s.Name, s.Type)
	}
	if s.TimeoutSet && s.Timeout < 0 {
		t.Fatalf("%s: negative timeout", s.Name)
	}
	for _, p := range append(append([]string{}, s.EnabledTools...), s.DisabledTools...) {
		s.ToolAllowed(p) // must not panic on any accepted pattern
	}
}

// FuzzInspect feeds arbitrary documents to the untrusted reading of a
// project file: it must never panic, never consult the environment, and
// mark every server it returns untrusted.
func FuzzInspect(f *testing.F) {
	f.Add([]byte(`{"mcpServers": {"a": {"command": "${X}", "args": ["${Y:-${Z}}"], "env": {"K": "${input:k}"}}}}`), uint8(0))
	f.Add([]byte(`{"servers": {"a": {"url": "https://h/${U}", "headers": {"A": "${env:H}"}, "oauth": {"clientSecret": "${S}"}}}}`), uint8(1))
	f.Add([]byte("[mcp_servers.a]\nurl = \"https://h\"\nbearer_token_env_var = \"T\"\nenv_vars = [\"V\"]\n"), uint8(2))
	formats := []Format{FormatMCPServers, FormatVSCode, FormatCodex, FormatGemini, FormatZed}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		opts := LoadOptions{Dir: "/proj", HomeDir: "/home/dev", Env: func(name string) (string, bool) {
			t.Fatalf("the environment was consulted for %q", name)
			return "", false
		}}
		in := inspectData(data, "/proj/x", formats[int(which)%len(formats)], opts)
		for _, s := range in.Servers {
			if !s.Source.Untrusted || !slices.Contains(in.Names, s.Name) {
				t.Fatalf("server %q: untrusted %v, names %v", s.Name, s.Source.Untrusted, in.Names)
			}
		}
	})
}
