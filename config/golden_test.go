package config

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/*.golden from the current output")

// goldenEnv is the environment the golden files are expanded in. Some
// variables the files use are missing on purpose (AIRTABLE_API_KEY).
var goldenEnv = map[string]string{
	"GITHUB_PAT":                 "test-github-pat",
	"API_KEY":                    "test-api-key",
	"MY_SERVICE_TOKEN":           "test-service-token",
	"FIGMA_TOKEN":                "test-figma-token",
	"MCPWIRE_INPUT_GITHUB_TOKEN": "test-input-github-token",
	"LINEAR_CLIENT_SECRET":       "test-linear-secret",
}

// TestGolden parses config files written in the shapes the hosts
// document and compares everything Parse returns with a .golden file.
func TestGolden(t *testing.T) {
	files := []string{
		"claude-code/.mcp.json",
		"cursor/.cursor/mcp.json",
		"vscode/.vscode/mcp.json",
		"windsurf/mcp_config.json",
		"claude-json/.claude.json",
		"mcpwire/mcpwire.json",
		"claude-desktop/claude_desktop_config.json",
		"gemini/.gemini/settings.json",
		"zed/.zed/settings.json",
		"codex/.codex/config.toml",
	}
	for _, name := range files {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "golden", filepath.FromSlash(name)))
			if err != nil {
				t.Fatal(err)
			}
			servers, problems := Parse(data, name, FormatAuto, LoadOptions{
				Dir:     "/work/project",
				HomeDir: "/home/dev",
				Env:     envOf(goldenEnv),
				Inputs:  map[string]string{"perplexity-key": "test-perplexity-key"},
			})
			got := dump(servers, problems)
			golden := filepath.Join("testdata", "golden", strings.SplitN(name, "/", 2)[0]+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", name, golden, got, want)
			}
		})
	}
}

// dump prints servers and problems in a stable, readable form.
func dump(servers []*Server, problems []Problem) []byte {
	var b bytes.Buffer
	for _, s := range servers {
		fmt.Fprintf(&b, "server %q type=%s enabled=%v source=%s format=%s section=%s\n", s.Name, s.Type, s.Enabled, s.Source, s.Source.Format, s.Source.Section)
		if s.Command != "" {
			fmt.Fprintf(&b, "  command %q\n", s.Command)
		}
		if s.Args != nil {
			fmt.Fprintf(&b, "  args %q\n", s.Args)
		}
		dumpMap(&b, "env", s.Env)
		if s.Cwd != "" {
			fmt.Fprintf(&b, "  cwd %q\n", s.Cwd)
		}
		if s.InheritEnv {
			b.WriteString("  inheritEnv\n")
		}
		if s.URL != "" {
			fmt.Fprintf(&b, "  url %q\n", s.URL)
		}
		dumpMap(&b, "headers", s.Headers)
		if s.BearerTokenEnvVar != "" {
			fmt.Fprintf(&b, "  bearerTokenEnvVar %q\n", s.BearerTokenEnvVar)
		}
		if s.TimeoutSet {
			fmt.Fprintf(&b, "  timeout %v\n", s.Timeout)
		}
		if s.StartupTimeout != 0 {
			fmt.Fprintf(&b, "  startupTimeout %v\n", s.StartupTimeout)
		}
		if s.Lazy {
			b.WriteString("  lazy\n")
		}
		if s.EnabledTools != nil {
			fmt.Fprintf(&b, "  enabledTools %q\n", s.EnabledTools)
		}
		if s.DisabledTools != nil {
			fmt.Fprintf(&b, "  disabledTools %q\n", s.DisabledTools)
		}
		if s.OAuth != nil {
			fmt.Fprintf(&b, "  oauth %s\n", s.OAuth)
		}
		fmt.Fprintf(&b, "  raw %s\n", s.Raw)
	}
	for _, p := range problems {
		fmt.Fprintf(&b, "problem %s\n", p.Error())
	}
	return b.Bytes()
}

func dumpMap(b *bytes.Buffer, name string, m map[string]string) {
	if m == nil {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(b, "  %s {", name)
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%q: %q", k, m[k])
	}
	b.WriteString("}\n")
}
