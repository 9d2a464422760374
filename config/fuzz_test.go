package config

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
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
		format := formats[int(which)%len(formats)]
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
		}
		literalEscape := bytes.Contains(data, []byte("$${"))
		for _, s := range servers {
			checkFuzzedServer(t, s, literalEscape)
		}
	})
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
