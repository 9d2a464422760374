package config

import (
	"strings"
	"testing"
)

func TestCodexSyntaxErrorNamesLineAndColumn(t *testing.T) {
	doc := "model = \"x\"\n\n[mcp_servers.a]\ncommand = \"npx\"\nargs = [\"-y\",\n"
	servers, problems := Parse([]byte(doc), "config.toml", FormatCodex, LoadOptions{})
	if len(servers) != 0 || len(problems) != 1 {
		t.Fatalf("servers %v problems %v", servers, problems)
	}
	if p := problems[0]; p.Line < 5 || !strings.HasPrefix(p.Error(), "config.toml:") || !strings.Contains(p.Msg, "invalid TOML") {
		t.Errorf("problem %q: want config.toml:5 or later and invalid TOML", p.Error())
	}
}

// TestCodexProblemsPointIntoTheTOML: a problem deep in a server (an inline
// table, a sub-table declared later) names the line of its key in
// config.toml, not a place in some intermediate form.
func TestCodexProblemsPointIntoTheTOML(t *testing.T) {
	doc := `[mcp_servers.a]
command = "x"

[mcp_servers.b]
url = "https://h.example/mcp"
http_headers = { "Ok" = "1", "Bad Name" = "2" }

[mcp_servers.a.env]
GOOD = "1"
"BAD=" = "2"

[mcp_servers.c]
command = "y"
tool_timeout_sec = -1
`
	_, problems := Parse([]byte(doc), "config.toml", FormatCodex, LoadOptions{})
	wantProblem(t, problems, "config.toml:6:30:", `server "b"`, `http_headers.Bad Name`, "not a valid HTTP header name")
	wantProblem(t, problems, "config.toml:10:1:", `server "a"`, "env.BAD=")
	wantProblem(t, problems, "config.toml:14:1:", `server "c"`, "tool_timeout_sec", "negative")
}

func TestCodexFieldsForTheOtherTransport(t *testing.T) {
	doc := `[mcp_servers.local]
command = "x"
bearer_token_env_var = "T"
http_headers = { "A" = "b" }

[mcp_servers.remote]
url = "https://h.example/mcp"
env_vars = ["HOME"]
bearer_token_env_var = "T"

[mcp_servers.odd]
command = "x"
tool_timeout_sec = nan
`
	servers, problems := Parse([]byte(doc), "config.toml", FormatCodex, LoadOptions{Env: envOf(map[string]string{"T": "s3cr3t-tok", "HOME": "/h"})})
	byName := map[string]*Server{}
	for _, s := range servers {
		byName[s.Name] = s
	}
	if s := byName["local"]; s == nil || s.Headers != nil || s.BearerTokenEnvVar != "" {
		t.Errorf("local: %+v", s)
	}
	if s := byName["remote"]; s == nil || s.Env != nil || s.Headers["Authorization"] != "Bearer s3cr3t-tok" || s.BearerTokenEnvVar != "T" {
		t.Errorf("remote: %+v", s)
	}
	wantProblem(t, problems, `server "local": bearer_token_env_var: ignored`)
	wantProblem(t, problems, `server "local": http_headers: ignored`)
	wantProblem(t, problems, `server "remote": env_vars: ignored`)
	wantProblem(t, problems, `server "odd": tool_timeout_sec:`, "got nan: want seconds")
	for _, p := range problems {
		if strings.Contains(p.Error(), "s3cr3t") {
			t.Errorf("problem shows the token: %s", p.Error())
		}
	}
}

// TestCodexBearerTokenNotSetIsAnError: Codex refuses to start such a
// server; so does Load, rather than connect without the token.
func TestCodexBearerTokenNotSetIsAnError(t *testing.T) {
	doc := "[mcp_servers.r]\nurl = \"https://h.example/mcp\"\nbearer_token_env_var = \"TOKEN\"\n"
	for _, env := range []map[string]string{nil, {"TOKEN": ""}} {
		servers, problems := Parse([]byte(doc), "config.toml", FormatCodex, LoadOptions{Env: envOf(env)})
		if len(servers) != 0 {
			t.Errorf("env %v: servers %v", env, servers)
		}
		wantProblem(t, problems, "config.toml:3:", `environment variable "TOKEN" is not set`)
	}
}

// A config.toml saved with a UTF-8 byte order mark (Notepad's habit)
// loads as the JSON files do, and its problems keep their columns.
func TestCodexByteOrderMark(t *testing.T) {
	doc := "\ufeff[mcp_servers.a]\ncommand = \"npx\"\nargs = \"-y\"\n"
	servers, problems := Parse([]byte(doc), "config.toml", FormatCodex, LoadOptions{})
	if len(servers) != 0 {
		t.Fatalf("servers %v", servers)
	}
	wantProblem(t, problems, "config.toml:3:1:", `server "a"`, "args")
	servers, problems = Parse([]byte("\ufeff[mcp_servers.a]\ncommand = \"npx\"\n"), "config.toml", FormatCodex, LoadOptions{})
	if len(servers) != 1 || servers[0].Command != "npx" || len(problems) != 0 {
		t.Errorf("servers %v problems %v", servers, problems)
	}
}
