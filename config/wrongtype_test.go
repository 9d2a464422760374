package config

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A field of the wrong type is one problem: the type error, naming file,
// server and field, and no second error derived from the value that could
// not be read ("empty command", "disagree", an empty tool list). These
// tables feed each field the wrong type in every format the loader reads.

// wrongType is one bad field: the members of a definition (JSON, or TOML
// lines for Codex) and the one problem they must give.
type wrongType struct {
	def, field, msg string
}

// jsonWrongTypes holds the fields every JSON format reads.
var jsonWrongTypes = []wrongType{
	{`"type": 3, "command": "x"`, "type", "want a string, got number"},
	{`"command": 3`, "command", "want a string, got number"},
	{`"command": ["npx", "-y"]`, "command", "want a string, got array"},
	{`"type": "stdio", "command": {"path": "x"}`, "command", "want a string, got object"},
	{`"command": "x", "args": "-y"`, "args", "want an array of strings, got string"},
	{`"command": "x", "args": ["a", {}]`, "args[1]", "want a string, got object"},
	{`"command": "x", "env": ["A=1"]`, "env", "want an object of strings, got array"},
	{`"command": "x", "env": {"K": []}`, "env.K", "want a string, got array"},
	{`"command": "x", "cwd": 3`, "cwd", "want a string, got number"},
	{`"command": "x", "envPolicy": true`, "envPolicy", "want a string, got boolean"},
	{`"url": 3`, "url", "want a string, got number"},
	{`"type": "http", "url": true`, "url", "want a string, got boolean"},
	{`"type": "sse", "url": {}`, "url", "want a string, got object"},
	{`"serverUrl": []`, "serverUrl", "want a string, got array"},
	{`"url": "https://h.example", "headers": "Bearer x"`, "headers", "want an object of strings, got string"},
	{`"url": "https://h.example", "headers": {"A": {}}`, "headers.A", "want a string, got object"},
	{`"url": "https://h.example", "oauth": "x"`, "oauth", "want an object, got string"},
	{`"command": "x", "timeout": true`, "timeout", `got boolean: want milliseconds (30000) or a duration ("30s"); 0 disables`},
	{`"command": "x", "enabled": "yes"`, "enabled", "want true or false, got string"},
	{`"command": "x", "enabled": "no", "disabled": false`, "enabled", "want true or false, got string"},
	{`"command": "x", "enabled": true, "disabled": 1`, "disabled", "want true or false, got number"},
	{`"command": "x", "lazy": "yes"`, "lazy", "want true or false, got string"},
	{`"command": "x", "enabledTools": "read"`, "enabledTools", "want an array of strings, got string"},
	{`"command": "x", "enabledTools": [{"name": "read"}]`, "enabledTools[0]", "want a string, got object"},
	{`"command": "x", "disabledTools": [[]]`, "disabledTools[0]", "want a string, got array"},
	{`"command": "x", "maxMessageSize": "64"`, "maxMessageSize", "got string: want a whole number of bytes (67108864 for 64 MiB), or -1 for no limit"},
	{`"command": "x", "protocolVersion": 2025`, "protocolVersion", "want a string, got number"},
}

// A check that derives from a value must not follow a type error in it,
// nor a value error: one problem each here too.
var jsonOneProblem = []wrongType{
	{`"command": "x", "enabledTools": [""]`, "enabledTools[0]", "empty pattern"},
}

func TestWrongTypeIsOneProblemJSON(t *testing.T) {
	formats := []struct {
		format Format
		file   string
		wrap   string // %s: the servers' members
		extra  []wrongType
	}{
		{FormatMCPServers, ".mcp.json", `{"mcpServers": {%s}}`, nil},
		{FormatClaudeDesktop, "claude_desktop_config.json", `{"mcpServers": {%s}}`, nil},
		{FormatClaude, ".claude.json", `{"mcpServers": {%s}}`, nil},
		{FormatClaude, ".claude.json", `{"projects": {"/proj": {"mcpServers": {%s}}}}`, nil},
		{FormatMCPWire, "mcpwire.json", `{"servers": {%s}}`, nil},
		{FormatVSCode, ".vscode/mcp.json", `{"servers": {%s}, "inputs": []}`, nil},
		{FormatGemini, ".gemini/settings.json", `{"mcpServers": {%s}}`, []wrongType{
			{`"httpUrl": 3`, "httpUrl", "want a string, got number"},
			{`"command": "x", "includeTools": "a"`, "includeTools", "want an array of strings, got string"},
			{`"command": "x", "excludeTools": [true, {}]`, "excludeTools[1]", "want a string, got object"},
		}},
		{FormatZed, ".zed/settings.json", `{"context_servers": {%s}}`, []wrongType{
			{`"command": {"path": 3}`, "command.path", "want a string, got number"},
			{`"command": {"path": ["x"], "args": ["a"]}`, "command.path", "want a string, got array"},
			{`"command": {"path": "x", "args": "a"}`, "command.args", "want an array of strings, got string"},
			{`"command": {"path": "x", "env": {"K": {}}}`, "command.env.K", "want a string, got object"},
			{`"command": "x", "source": 3`, "source", "want a string, got number"},
			{`"source": ["extension"], "command": "x"`, "source", "want a string, got array"},
			{`"command": {"path": " "}`, "command.path", "empty command"},
		}},
	}
	for _, f := range formats {
		cases := slices.Concat(jsonWrongTypes, jsonOneProblem, f.extra)
		for _, c := range cases {
			name := fmt.Sprintf("%s/%s/%s", f.file, c.field, c.def)
			if f.format == FormatZed && strings.Contains(c.def, `"command": {"path"`) && c.field == "command" {
				continue // Zed reads an object command as {"path", ...}
			}
			t.Run(name, func(t *testing.T) {
				members := `"ok": {"command": "fine"}, "s": {` + c.def + `}`
				data := fmt.Sprintf(f.wrap, members)
				checkOneProblem(t, data, f.file, f.format, c)
			})
		}
	}
}

// codexWrongTypes are Codex's fields in TOML, the wrong type for each.
var codexWrongTypes = []wrongType{
	{"type = 3\ncommand = \"x\"", "type", "want a string, got number"},
	{"command = 3", "command", "want a string, got number"},
	{"command = true", "command", "want a string, got boolean"},
	{"command = [\"npx\", \"-y\"]", "command", "want a string, got array"},
	{"command = { path = \"x\" }", "command", "want a string, got object"},
	{"command = 1.5", "command", "want a string, got number"},
	{"type = \"stdio\"\ncommand = 3", "command", "want a string, got number"},
	{"command = \"x\"\nargs = \"-y\"", "args", "want an array of strings, got string"},
	{"command = \"x\"\nargs = [\"a\", [\"b\"]]", "args[1]", "want a string, got array"},
	{"command = \"x\"\nenv = 3", "env", "want an object of strings, got number"},
	{"command = \"x\"\nenv = { K = [1] }", "env.K", "want a string, got array"},
	{"command = \"x\"\ncwd = 3", "cwd", "want a string, got number"},
	{"command = \"x\"\nenv_vars = \"HOME\"", "env_vars", "want an array of strings, got string"},
	{"command = \"x\"\nenv_vars = [{}]", "env_vars[0]", "want a string, got object"},
	{"url = 3", "url", "want a string, got number"},
	{"url = [\"https://h.example\"]", "url", "want a string, got array"},
	{"url = \"https://h.example\"\nhttp_headers = \"x\"", "http_headers", "want an object of strings, got string"},
	{"url = \"https://h.example\"\nhttp_headers = { A = {} }", "http_headers.A", "want a string, got object"},
	{"url = \"https://h.example\"\nenv_http_headers = 3", "env_http_headers", "want an object of strings, got number"},
	{"url = \"https://h.example\"\nenv_http_headers = { A = [] }", "env_http_headers.A", "want a string, got array"},
	{"url = \"https://h.example\"\nbearer_token_env_var = 3", "bearer_token_env_var", "want a string, got number"},
	{"command = \"x\"\ntool_timeout_sec = true", "tool_timeout_sec", `got boolean: want seconds (30) or a duration ("30s"); 0 disables`},
	{"command = \"x\"\nstartup_timeout_sec = []", "startup_timeout_sec", `got array: want seconds (30) or a duration ("30s"); 0 disables`},
	{"command = \"x\"\nstartup_timeout_ms = {}", "startup_timeout_ms", `got object: want milliseconds (30000) or a duration ("30s"); 0 disables`},
	{"command = \"x\"\nenabled = \"yes\"", "enabled", "want true or false, got string"},
	{"command = \"x\"\nenabled = 0\ndisabled = false", "enabled", "want true or false, got number"},
	{"command = \"x\"\nenabled_tools = \"read\"", "enabled_tools", "want an array of strings, got string"},
	{"command = \"x\"\nenabled_tools = [{ name = \"read\" }]", "enabled_tools[0]", "want a string, got object"},
	{"command = \"x\"\ndisabled_tools = 3", "disabled_tools", "want an array of strings, got number"},
	{"command = \"x\"\ndisabled_tools = [\"\"]", "disabled_tools[0]", "empty pattern"},
	// TOML's own kinds, which JSON has none for: not strings to a field.
	{"command = 1979-05-27T07:32:00Z", "command", "want a string, got datetime"},
	{"command = 1979-05-27T07:32:00", "command", "want a string, got datetime"},
	{"command = 1979-05-27", "command", "want a string, got date"},
	{"command = 07:32:00", "command", "want a string, got time"},
	{"command = nan", "command", "want a string, got nan"},
	{"command = \"x\"\nargs = [\"a\", -inf]", "args[1]", "want a string, got inf"},
	{"command = \"x\"\nargs = [\"a\", 1979-05-27]", "args[1]", "want a string, got date"},
	{"command = \"x\"\nenv = { K = 07:32:00 }", "env.K", "want a string, got time"},
	{"command = \"x\"\ncwd = 1979-05-27", "cwd", "want a string, got date"},
	{"command = \"x\"\nenabled = 1979-05-27", "enabled", "want true or false, got date"},
	{"command = \"x\"\nenabled_tools = [1979-05-27]", "enabled_tools[0]", "want a string, got date"},
	{"command = \"x\"\ntool_timeout_sec = 00:00:30", "tool_timeout_sec", `got time: want seconds (30) or a duration ("30s"); 0 disables`},
	{"command = \"x\"\nstartup_timeout_sec = inf", "startup_timeout_sec", `got inf: want seconds (30) or a duration ("30s"); 0 disables`},
	{"url = 1979-05-27", "url", "want a string, got date"},
	{"url = \"https://h.example\"\nhttp_headers = { A = 1979-05-27T07:32:00Z }", "http_headers.A", "want a string, got datetime"},
	{"url = \"https://h.example\"\nbearer_token_env_var = nan", "bearer_token_env_var", "want a string, got nan"},
}

// A server written as a TOML date is not a definition, and says so.
func TestCodexServerOfTOMLKind(t *testing.T) {
	_, problems := Parse([]byte("[mcp_servers]\ns = 1979-05-27\n"), "config.toml", FormatCodex, LoadOptions{})
	if len(problems) != 1 || problems[0].Error() != `config.toml:2:1: server "s": want an object holding the server's definition, got date` {
		t.Errorf("problems:\n%s", problemLines(problems))
	}
}

func TestWrongTypeIsOneProblemCodex(t *testing.T) {
	for _, c := range codexWrongTypes {
		t.Run(c.field+"/"+c.def, func(t *testing.T) {
			data := "model = \"o3\"\n\n[mcp_servers.ok]\ncommand = \"fine\"\n\n[mcp_servers.s]\n" + c.def + "\n"
			checkOneProblem(t, data, "config.toml", FormatCodex, c)
		})
	}
}

// checkOneProblem parses data and wants exactly c's problem about server
// "s", which does not load, and "ok" loaded beside it.
func checkOneProblem(t *testing.T, data, file string, format Format, c wrongType) {
	t.Helper()
	servers, problems := Parse([]byte(data), file, format, LoadOptions{Dir: "/proj", Env: envOf(nil)})
	var names []string
	for _, s := range servers {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"ok"}) {
		t.Errorf("loaded %q, want only \"ok\"", names)
	}
	want := Problem{File: file, Server: "s", Field: c.field, Msg: c.msg}
	if len(problems) != 1 {
		t.Fatalf("got %d problems, want exactly %q:\n%s", len(problems), want.Error(), problemLines(problems))
	}
	got := problems[0]
	if got.Line == 0 || got.Col == 0 {
		t.Errorf("problem %q names no line and column", got.Error())
	}
	got.Line, got.Col = 0, 0
	if got != want {
		t.Errorf("problem %q, want %q", got.Error(), want.Error())
	}
}

func problemLines(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString("  " + p.Error() + "\n")
	}
	return b.String()
}

// A real conflict is not a follow-on error: a command on an HTTP server
// is wrong whatever its type, so both problems stand.
func TestWrongTypeKeepsConflicts(t *testing.T) {
	_, problems := Parse([]byte(`{"mcpServers": {"s": {"type": "sse", "command": 3, "url": "https://h.example"}}}`), ".mcp.json", FormatMCPServers, LoadOptions{})
	var got []string
	for _, p := range problems {
		got = append(got, p.Field+": "+p.Msg)
	}
	want := []string{`command: a sse server takes "url", not a command`, "command: want a string, got number"}
	if !slices.Equal(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
}

// The same files with every field of the right type load with no
// problem at all, so the tables above test the types and nothing else.
func TestRightTypesLoadCleanly(t *testing.T) {
	const stdio = `"type": "stdio", "command": "x", "args": ["a", 1], "env": {"K": "v"}, "cwd": "sub", "envPolicy": "inherit", "timeout": 3000,
		"enabled": true, "disabled": false, "lazy": true, "enabledTools": ["read_*"], "disabledTools": ["rm"], "maxMessageSize": -1, "protocolVersion": "auto"`
	const remote = `"url": "https://h.example/mcp", "headers": {"A": "b"}, "oauth": {"clientId": "c"}, "timeout": "30s"`
	docs := []struct {
		format Format
		file   string
		data   string
	}{
		{FormatMCPServers, ".mcp.json", `{"mcpServers": {"s": {` + stdio + `}, "r": {` + remote + `}}}`},
		{FormatClaudeDesktop, "claude_desktop_config.json", `{"mcpServers": {"s": {` + stdio + `}, "r": {` + remote + `}}}`},
		{FormatClaude, ".claude.json", `{"projects": {"/proj": {"mcpServers": {"s": {` + stdio + `}}}}, "mcpServers": {"r": {` + remote + `}}}`},
		{FormatMCPWire, "mcpwire.json", `{"servers": {"s": {` + stdio + `}, "r": {` + remote + `}}}`},
		{FormatVSCode, ".vscode/mcp.json", `{"servers": {"s": {` + stdio + `}, "r": {` + remote + `}}}`},
		{FormatGemini, ".gemini/settings.json", `{"mcpServers": {"s": {"command": "x", "includeTools": ["a"], "excludeTools": ["b"]}, "r": {"httpUrl": "https://h.example/mcp"}}}`},
		{FormatZed, ".zed/settings.json", `{"context_servers": {"s": {"command": {"path": "x", "args": ["a"], "env": {"K": "v"}}}, "r": {"url": "https://h.example/mcp"}}}`},
		{FormatCodex, "config.toml", `[mcp_servers.s]
command = "x"
args = ["a", 1]
env = { K = "v" }
cwd = "sub"
env_vars = ["HOME"]
tool_timeout_sec = 30
startup_timeout_sec = 10.5
enabled = true
enabled_tools = ["read_*"]
disabled_tools = ["rm"]

[mcp_servers.r]
url = "https://h.example/mcp"
http_headers = { A = "b" }
env_http_headers = { X-Token = "TOKEN" }
bearer_token_env_var = "TOKEN"
startup_timeout_ms = 2000
`},
	}
	for _, d := range docs {
		t.Run(d.file, func(t *testing.T) {
			servers, problems := Parse([]byte(d.data), d.file, d.format, LoadOptions{Dir: "/proj", Env: envOf(map[string]string{"TOKEN": "t", "HOME": "/h"})})
			if len(problems) != 0 {
				t.Errorf("problems:\n%s", problemLines(problems))
			}
			if len(servers) != 2 || servers[0].Command != "x" || servers[1].URL != "https://h.example/mcp" {
				t.Errorf("servers %+v", servers)
			}
		})
	}
}
