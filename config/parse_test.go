package config

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseTypes(t *testing.T) {
	tests := []struct {
		def, want string
	}{
		{`{"type": "stdio", "command": "x"}`, TypeStdio},
		{`{"command": "x"}`, TypeStdio},
		{`{"type": "http", "url": "https://h/mcp"}`, TypeHTTP},
		{`{"type": "streamable-http", "url": "https://h/mcp"}`, TypeHTTP},
		{`{"type": "streamableHttp", "url": "https://h/mcp"}`, TypeHTTP},
		{`{"type": "streamable_http", "url": "https://h/mcp"}`, TypeHTTP},
		{`{"type": "HTTP", "url": "https://h/mcp"}`, TypeHTTP},
		{`{"type": "sse", "url": "http://127.0.0.1:8080/sse"}`, TypeSSE},
		{`{"url": "https://h/mcp"}`, TypeAuto},
		{`{"serverUrl": "https://h/mcp"}`, TypeAuto},
		{`{"httpUrl": "https://h/mcp"}`, TypeHTTP},
		{`{"type": "sse", "serverUrl": "https://h/sse"}`, TypeSSE},
		{`{"type": "auto", "url": "https://h/mcp"}`, TypeAuto},
	}
	for _, tt := range tests {
		servers, problems := parseOne(t, FormatMCPServers, `{"mcpServers": {"s": `+tt.def+`}}`, nil)
		if len(problems) != 0 {
			t.Errorf("%s: problems %v", tt.def, problems)
		}
		s := servers["s"]
		if s == nil {
			t.Errorf("%s: not loaded", tt.def)
			continue
		}
		if s.Type != tt.want {
			t.Errorf("%s: Type = %q, want %q", tt.def, s.Type, tt.want)
		}
	}
}

func TestParseFields(t *testing.T) {
	env := map[string]string{"TOKEN": "tok", "PORT": "9000"}
	servers, problems := parseOne(t, FormatMCPWire, `{"servers": {
		"local": {
			"command": "node", "args": ["server.js", "--port", "${PORT}", 7, true],
			"env": {"API_TOKEN": "${TOKEN}", "N": 1}, "cwd": "sub/dir",
			"timeout": 1500, "lazy": true, "envPolicy": "inherit",
			"enabledTools": ["read_*", "search"], "disabledTools": ["read_secret"],
			"description": "ignored quietly", "alwaysAllow": ["x"]
		},
		"remote": {
			"type": "http", "url": "https://mcp.example.com/mcp?tenant=${TOKEN}",
			"headers": {"Authorization": "Bearer ${TOKEN}", "X-Num": 5},
			"timeout": "2m", "disabled": true,
			"oauth": {"clientId": "abc", "clientSecret": "${OAUTH_SECRET}", "scopes": ["a", "b"], "callbackPort": 8976}
		},
		"notimeout": {"command": "x", "timeout": 0, "enabled": false}
	}}`, env)
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	local := servers["local"]
	wantLocal := &Server{
		Name: "local", Type: TypeStdio, Command: "node",
		Args:    []string{"server.js", "--port", "9000", "7", "true"},
		Env:     map[string]string{"API_TOKEN": "tok", "N": "1"},
		Cwd:     "/proj/sub/dir",
		Timeout: 1500 * time.Millisecond, TimeoutSet: true,
		Enabled: true, Lazy: true, InheritEnv: true,
		EnabledTools: []string{"read_*", "search"}, DisabledTools: []string{"read_secret"},
		Vars:   []string{"PORT", "TOKEN"},
		Source: local.Source, Raw: local.Raw,
	}
	if !reflect.DeepEqual(local, wantLocal) {
		t.Errorf("local:\n got %+v\nwant %+v", local, wantLocal)
	}
	remote := servers["remote"]
	if remote.URL != "https://mcp.example.com/mcp?tenant=tok" || remote.Headers["Authorization"] != "Bearer tok" || remote.Headers["X-Num"] != "5" {
		t.Errorf("remote expanded wrong: %q %v", remote.URL, remote.Headers)
	}
	if remote.Timeout != 2*time.Minute || !remote.TimeoutSet || remote.Enabled {
		t.Errorf("remote timeout/enabled: %v %v %v", remote.Timeout, remote.TimeoutSet, remote.Enabled)
	}
	var oauth map[string]any
	if err := json.Unmarshal(remote.OAuth, &oauth); err != nil || oauth["clientSecret"] != "${OAUTH_SECRET}" || oauth["callbackPort"] != 8976.0 {
		t.Errorf("oauth passthrough: %s (%v)", remote.OAuth, err)
	}
	nt := servers["notimeout"]
	if nt.Timeout != 0 || !nt.TimeoutSet || nt.Enabled {
		t.Errorf("notimeout: %v %v %v", nt.Timeout, nt.TimeoutSet, nt.Enabled)
	}
	if local.Source.Line != 2 || remote.Source.Line != 9 || local.Source.Section != "servers" || local.Source.Format != FormatMCPWire {
		t.Errorf("sources: %+v %+v", local.Source, remote.Source)
	}
}

func TestParseDefaults(t *testing.T) {
	servers, problems := parseOne(t, FormatMCPServers, `{"mcpServers": {"s": {"command": "x", "args": null, "env": null}}}`, nil)
	s := servers["s"]
	if len(problems) != 0 || s == nil {
		t.Fatalf("problems %v", problems)
	}
	if !s.Enabled || s.Lazy || s.InheritEnv || s.TimeoutSet || s.Args != nil || s.Env != nil || s.Cwd != "" || s.OAuth != nil {
		t.Errorf("defaults wrong: %+v", s)
	}
	if !s.ToolAllowed("anything") {
		t.Error("no filters must allow every tool")
	}
}

func TestParseMaxMessageSize(t *testing.T) {
	servers, problems := parseOne(t, FormatMCPWire, `{"mcpServers": {
  "big": {"url": "https://h/mcp", "maxMessageSize": 268435456},
  "free": {"command": "x", "maxMessageSize": -1},
  "plain": {"command": "x"}
}}`, nil)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	for name, want := range map[string]int64{"big": 256 << 20, "free": -1, "plain": 0} {
		if got := servers[name].MaxMessageSize; got != want {
			t.Errorf("%s: MaxMessageSize = %d, want %d", name, got, want)
		}
	}
}

func TestParseProtocolVersion(t *testing.T) {
	servers, problems := parseOne(t, FormatMCPWire, `{"mcpServers": {
  "old": {"command": "x", "protocolVersion": "2025-11-25"},
  "new": {"url": "https://h/mcp", "protocolVersion": "2026-07-28"},
  "auto": {"command": "x", "protocolVersion": "auto"},
  "plain": {"command": "x"}
}}`, nil)
	if len(problems) > 0 {
		t.Fatalf("problems: %v", problems)
	}
	for name, want := range map[string]string{"old": "2025-11-25", "new": "2026-07-28", "auto": "auto", "plain": ""} {
		if got := servers[name].ProtocolVersion; got != want {
			t.Errorf("%s: ProtocolVersion = %q, want %q", name, got, want)
		}
	}
}

func TestToolAllowed(t *testing.T) {
	s := &Server{EnabledTools: []string{"read_*", "search", "a?c"}, DisabledTools: []string{"read_secret*"}}
	tests := map[string]bool{
		"read_file": true, "search": true, "abc": true,
		"read_secret": false, "read_secret_2": false, // disabled wins over enabled
		"write_file": false, "searches": false, "ac": false,
	}
	for name, want := range tests {
		if got := s.ToolAllowed(name); got != want {
			t.Errorf("ToolAllowed(%q) = %v, want %v", name, got, want)
		}
	}
	only := &Server{DisabledTools: []string{"delete_*"}}
	if !only.ToolAllowed("read") || only.ToolAllowed("delete_repo") {
		t.Error("disabledTools alone")
	}
}

func TestParseProblems(t *testing.T) {
	tests := []struct {
		name, def string
		want      []string // substrings of one problem
	}{
		{"no command or url", `{}`, []string{`server "s"`, `needs "command"`}},
		{"both command and url", `{"command": "x", "url": "https://h"}`, []string{`both "command" and "url"`}},
		{"url and serverUrl", `{"url": "https://h", "serverUrl": "https://h"}`, []string{"serverUrl:", `both "url" and "serverUrl"`}},
		{"stdio without command", `{"type": "stdio"}`, []string{"command:", "needs a command"}},
		{"stdio with url", `{"type": "stdio", "command": "x", "url": "https://h"}`, []string{"url:", `takes "command"`}},
		{"http without url", `{"type": "http"}`, []string{"url:", "needs a url"}},
		{"sse with command", `{"type": "sse", "command": "x", "url": "https://h"}`, []string{"command:", `takes "url"`}},
		{"unknown type", `{"type": "websocket", "url": "wss://h"}`, []string{"type:", `unknown type "websocket"`}},
		{"type not a string", `{"type": 3, "command": "x"}`, []string{"type:", "want a string, got number"}},
		{"empty command", `{"command": " "}`, []string{"command:", "empty command"}},
		{"command not a string", `{"command": ["npx"]}`, []string{"command:", "want a string, got array"}},
		{"args not an array", `{"command": "x", "args": "-y"}`, []string{"args:", "want an array of strings, got string"}},
		{"arg an object", `{"command": "x", "args": ["a", {}]}`, []string{"args[1]:", "got object"}},
		{"env not an object", `{"command": "x", "env": []}`, []string{"env:", "got array"}},
		{"env key with =", `{"command": "x", "env": {"A=B": "v"}}`, []string{"env.A=B:", "no \"=\""}},
		{"relative url", `{"url": "localhost:8080/mcp"}`, []string{"url:", "absolute http:// or https://"}},
		{"no scheme", `{"url": "/mcp"}`, []string{"url:", "absolute"}},
		{"ftp url", `{"url": "ftp://files.example.com/x"}`, []string{"url:", "(ftp://files.example.com/…)"}},
		{"websocket url", `{"type": "http", "url": "wss://h.example/ws"}`, []string{"url:", "WebSocket"}},
		{"url without host", `{"url": "https:///path"}`, []string{"url:", "no host"}},
		{"empty url", `{"url": ""}`, []string{"url:", "empty URL"}},
		{"bad url", `{"url": "https://h/%zz"}`, []string{"url:", "not a valid URL"}},
		{"header name", `{"url": "https://h", "headers": {"Bad Header": "v"}}`, []string{"headers.Bad Header:", "header name"}},
		{"timeout negative", `{"command": "x", "timeout": -1}`, []string{"timeout:", "negative"}},
		{"maxMessageSize a string", `{"command": "x", "maxMessageSize": "64MiB"}`, []string{"maxMessageSize:", "got string", "whole number of bytes"}},
		{"maxMessageSize fractional", `{"command": "x", "maxMessageSize": 1.5}`, []string{"maxMessageSize:", "whole number"}},
		{"maxMessageSize below -1", `{"command": "x", "maxMessageSize": -2}`, []string{"maxMessageSize:", "at least -1"}},
		{"timeout bad string", `{"command": "x", "timeout": "soon"}`, []string{"timeout:", `"soon" is not a duration`}},
		{"timeout unitless string", `{"command": "x", "timeout": "30000"}`, []string{"timeout:", "not a duration"}},
		{"timeout huge", `{"command": "x", "timeout": 1e300}`, []string{"timeout:", "too large"}},
		{"timeout bool", `{"command": "x", "timeout": true}`, []string{"timeout:", "got boolean"}},
		{"enabled not bool", `{"command": "x", "enabled": "yes"}`, []string{"enabled:", "want true or false"}},
		{"enabled and disabled disagree", `{"command": "x", "enabled": true, "disabled": true}`, []string{"disabled:", "disagree"}},
		{"bad glob", `{"command": "x", "enabledTools": ["read_[a"]}`, []string{"enabledTools[0]:", `bad glob "read_[a"`}},
		{"empty pattern", `{"command": "x", "disabledTools": [""]}`, []string{"disabledTools[0]:", "empty pattern"}},
		{"envPolicy", `{"command": "x", "envPolicy": "all"}`, []string{"envPolicy:", `unknown policy "all"`}},
		{"protocolVersion not a revision", `{"command": "x", "protocolVersion": "latest"}`, []string{"protocolVersion:", `"latest" is not a protocol revision`, `"auto"`}},
		{"protocolVersion a number", `{"command": "x", "protocolVersion": 2025}`, []string{"protocolVersion:", "want a string, got number"}},
		{"oauth not object", `{"url": "https://h", "oauth": "x"}`, []string{"oauth:", "want an object"}},
		{"definition not object", `"npx server"`, []string{`server "s"`, "want an object"}},
		{"unset variable", `{"command": "x", "args": ["a", "b", "${NOPE}"]}`, []string{`server "s"`, "args[2]:", `"NOPE" is not set`}},
		{"unset header variable", `{"url": "https://h", "headers": {"Authorization": "Bearer ${GH_TOKEN}"}}`, []string{"headers.Authorization:", `"GH_TOKEN"`}},
		{"unset url variable", `{"url": "${BASE_URL}/mcp"}`, []string{"url:", `"BASE_URL"`}},
		{"unset serverUrl variable", `{"serverUrl": "${BASE_URL}/mcp"}`, []string{"serverUrl:", `"BASE_URL"`}},
		{"unset cwd variable", `{"command": "x", "cwd": "${DIR}"}`, []string{"cwd:", `"DIR"`}},
		{"unset env variable", `{"command": "x", "env": {"K": "${V}"}}`, []string{"env.K:", `"V"`}},
		{"unset command variable", `{"command": "${BIN}"}`, []string{"command:", `"BIN"`}},
		{"command empty after expansion", `{"command": "${EMPTY}"}`, []string{"command:", "empty command"}},
		{"url empty after expansion", `{"url": "${EMPTY}"}`, []string{"url:", "empty URL"}},
		{"unset input", `{"command": "x", "env": {"K": "${input:key}"}}`, []string{"env.K:", `input "key"`, "MCPWIRE_INPUT_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := `{"mcpServers": {"ok": {"command": "fine"}, "s": ` + tt.def + `}}`
			servers, problems := parseOne(t, FormatMCPServers, data, map[string]string{"EMPTY": ""})
			if servers["s"] != nil {
				t.Errorf("invalid server loaded: %+v", servers["s"])
			}
			if servers["ok"] == nil {
				t.Error("the valid server beside it did not load")
			}
			wantProblem(t, problems, tt.want...)
			for _, p := range problems {
				if p.File != "test.json" || p.Line == 0 {
					t.Errorf("problem without place: %+v", p)
				}
			}
		})
	}
}

func TestParseWarnings(t *testing.T) {
	tests := []struct {
		name, def string
		want      []string
	}{
		{"unknown field", `{"command": "x", "comand": "y"}`, []string{`unknown field "comand" ignored`}},
		{"envFile", `{"command": "x", "envFile": "${workspaceFolder}/.env"}`, []string{"envFile:", "not supported"}},
		{"headers on stdio", `{"command": "x", "headers": {"A": "${UNSET}"}}`, []string{"headers:", "ignored"}},
		{"env on http", `{"url": "https://h", "env": {"A": "${UNSET}"}, "cwd": "${UNSET}"}`, []string{"env:", "ignored"}},
		{"empty enabledTools", `{"command": "x", "enabledTools": []}`, []string{"enabledTools:", "filters nothing"}},
		{"duplicate field", `{"command": "x", "command": "y"}`, []string{"command:", "duplicate key", "line 1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			servers, problems := parseOne(t, FormatMCPServers, `{"mcpServers": {"s": `+tt.def+`}}`, nil)
			if servers["s"] == nil {
				t.Fatalf("a warning must not stop the server: %v", errorsOf(problems))
			}
			if errs := errorsOf(problems); len(errs) != 0 {
				t.Errorf("errors: %v", errs)
			}
			wantProblem(t, problems, append([]string{"warning:", `server "s"`}, tt.want...)...)
		})
	}
	servers, _ := parseOne(t, FormatMCPServers, `{"mcpServers": {"s": {"command": "x", "command": "y"}}}`, nil)
	if servers["s"].Command != "y" {
		t.Errorf("duplicate key: got %q, want the last, as JSON.parse", servers["s"].Command)
	}
}

func TestParseFormats(t *testing.T) {
	tests := []struct {
		name     string
		format   Format
		data     string
		want     []string   // server names in order
		problems [][]string // per expected problem: substrings of its text
	}{
		{"mcpServers", FormatMCPServers, `{"mcpServers": {"b": {"command": "x"}, "a": {"command": "y"}}}`, []string{"b", "a"}, nil},
		{"mcpServers ignores servers", FormatMCPServers, `{"servers": {"a": {"command": "x"}}}`, nil, [][]string{{`unknown top-level key "servers"`, `under "mcpServers"`}}},
		{"vscode servers", FormatVSCode, `{"servers": {"a": {"command": "x"}}, "inputs": []}`, []string{"a"}, nil},
		{"vscode ignores mcpServers", FormatVSCode, `{"mcpServers": {"a": {"command": "x"}}}`, nil, [][]string{{`unknown top-level key "mcpServers"`, `"servers"`}}},
		{"mcpwire servers", FormatMCPWire, `{"servers": {"a": {"command": "x"}}}`, []string{"a"}, nil},
		{"mcpwire mcpServers", FormatMCPWire, `{"mcpServers": {"a": {"command": "x"}}}`, []string{"a"}, nil},
		{"mcpwire both", FormatMCPWire, `{"servers": {"a": {"command": "x"}}, "mcpServers": {"b": {"command": "x"}}}`, []string{"a", "b"}, [][]string{{"both"}}},
		{"schema key", FormatMCPWire, `{"$schema": "https://x", "servers": {}}`, nil, nil},
		{"empty object", FormatMCPServers, `{}`, nil, nil},
		{"null map", FormatMCPServers, `{"mcpServers": null}`, nil, nil},
		{"map not object", FormatMCPServers, `{"mcpServers": []}`, nil, [][]string{{"mcpServers:", "want an object mapping"}}},
		{"top not object", FormatMCPServers, `[]`, nil, [][]string{{"must hold a JSON object, got array"}}},
		{"empty file", FormatMCPServers, " \n", nil, [][]string{{"warning", "empty file"}}},
		{"unknown top key", FormatMCPServers, `{"mcpServers": {}, "theme": 1}`, nil, [][]string{{`unknown top-level key "theme"`}}},
		{"empty name", FormatMCPServers, `{"mcpServers": {"": {"command": "x"}, "a": {"command": "x"}}}`, []string{"a"}, [][]string{{"name must not be empty"}}},
		{"control char name", FormatMCPServers, `{"mcpServers": {"a\u0007": {"command": "x"}}}`, nil, [][]string{{"control character"}}},
		{"duplicate name", FormatMCPServers, "{\"mcpServers\": {\"a\": {\"command\": \"x\"},\n \"a\": {\"command\": \"y\"}}}", []string{"a"}, [][]string{{"duplicate key", "line 2"}}},
		{"inputs not array", FormatVSCode, `{"inputs": {}}`, nil, [][]string{{"inputs:", "want an array"}}},
		{"input without id", FormatVSCode, `{"inputs": [{"type": "promptString"}, 3]}`, nil, [][]string{{"inputs[0].id:"}, {"inputs[1]:"}}},
		{"unknown format", Format("toml"), `{}`, nil, [][]string{{`unknown format "toml"`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			servers, problems := Parse([]byte(tt.data), "f.json", tt.format, LoadOptions{Env: envOf(nil)})
			var names []string
			for _, s := range servers {
				names = append(names, s.Name)
			}
			if !reflect.DeepEqual(names, tt.want) {
				t.Errorf("servers %v, want %v", names, tt.want)
			}
			if len(problems) != len(tt.problems) {
				t.Errorf("got %d problems, want %d: %v", len(problems), len(tt.problems), problems)
			}
			for _, w := range tt.problems {
				wantProblem(t, problems, w...)
			}
		})
	}
}

func TestParseSyntaxErrorPosition(t *testing.T) {
	tests := []struct {
		data      string
		line, col int
		msg       string
	}{
		{"{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"x\"}\n    \"b\": {}\n  }\n}", 4, 5, "invalid JSON"},
		{"{\n  // comment\n  \"a\": tru\n}", 3, 11, "invalid character"},
		{"{\n  \"a\": 1 /* never closed\n}", 2, 10, "unterminated /* comment"},
		{"{\"é\": ", 1, 6, "unexpected end"},
	}
	for _, tt := range tests {
		_, problems := Parse([]byte(tt.data), "x.json", FormatMCPWire, LoadOptions{})
		if len(problems) != 1 {
			t.Errorf("%q: problems %v", tt.data, problems)
			continue
		}
		p := problems[0]
		if p.Line != tt.line || p.Col != tt.col || !strings.Contains(p.Msg, tt.msg) || p.Warning {
			t.Errorf("%q: got %d:%d %q, want %d:%d %q", tt.data, p.Line, p.Col, p.Msg, tt.line, tt.col, tt.msg)
		}
	}
}

func TestParseFieldPosition(t *testing.T) {
	data := "{\"mcpServers\": {\n  \"a\": {\n    \"command\": \"x\",\n    \"args\": [\"ok\", \"${NOPE}\"]\n  }\n}}"
	_, problems := Parse([]byte(data), "x.json", FormatMCPServers, LoadOptions{Env: envOf(nil)})
	if len(problems) != 1 {
		t.Fatalf("problems %v", problems)
	}
	if got, want := problems[0].Error(), `x.json:4:20: server "a": args[1]: variable "NOPE" is not set (write ${NOPE:-default} to give a default)`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestParseVSCodeInputs(t *testing.T) {
	data := vscodeSample
	servers, problems := Parse([]byte(data), ".vscode/mcp.json", FormatAuto, LoadOptions{
		Env:    envOf(nil),
		Inputs: map[string]string{"perplexity-key": "pplx-123"},
	})
	if len(problems) != 0 || len(servers) != 1 {
		t.Fatalf("servers %v problems %v", servers, problems)
	}
	if got := servers[0].Env["PERPLEXITY_API_KEY"]; got != "pplx-123" {
		t.Errorf("input from Inputs: %q", got)
	}
	if servers[0].Source.Format != FormatVSCode {
		t.Errorf("format %q", servers[0].Source.Format)
	}

	servers, _ = Parse([]byte(data), ".vscode/mcp.json", FormatAuto, LoadOptions{
		Env: envOf(map[string]string{"MCPWIRE_INPUT_PERPLEXITY_KEY": "from-env"}),
	})
	if len(servers) != 1 || servers[0].Env["PERPLEXITY_API_KEY"] != "from-env" {
		t.Errorf("input from the environment: %v", servers)
	}

	servers, problems = Parse([]byte(data), ".vscode/mcp.json", FormatAuto, LoadOptions{Env: envOf(nil)})
	if len(servers) != 0 {
		t.Errorf("server loaded without its input")
	}
	wantProblem(t, problems, `server "Perplexity"`, "env.PERPLEXITY_API_KEY:", `input "perplexity-key" ("Perplexity API Key")`, "MCPWIRE_INPUT_PERPLEXITY_KEY")
}

func TestParseClaudeJSON(t *testing.T) {
	data := `{
  "numStartups": 12,
  "projects": {
    "/home/dev/other": {"mcpServers": {"other": {"command": "x"}}},
    "/home/dev/proj/": {"allowedTools": [], "mcpServers": {"local-db": {"type": "stdio", "command": "db-mcp"}, "shared": {"command": "local-wins"}}}
  },
  "mcpServers": {"shared": {"command": "user-level"}, "sentry": {"type": "http", "url": "https://mcp.sentry.dev/mcp"}}
}`
	servers, problems := Parse([]byte(data), ".claude.json", FormatAuto, LoadOptions{Dir: "/home/dev/proj"})
	if len(problems) != 0 {
		t.Fatalf("problems %v", problems)
	}
	var got []string
	for _, s := range servers {
		got = append(got, s.Name+"="+s.Command+s.URL+" @"+s.Source.Section)
	}
	want := []string{
		`local-db=db-mcp @projects["/home/dev/proj"].mcpServers`,
		`shared=local-wins @projects["/home/dev/proj"].mcpServers`,
		`shared=user-level @mcpServers`,
		`sentry=https://mcp.sentry.dev/mcp @mcpServers`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}

	servers, _ = Parse([]byte(data), ".claude.json", FormatClaude, LoadOptions{})
	if len(servers) != 2 {
		t.Errorf("without Dir only user-level servers load, got %v", servers)
	}
}

func TestDetectFormat(t *testing.T) {
	tests := map[string]Format{
		"/p/mcpwire.json":                      FormatMCPWire,
		"/p/.mcp.json":                         FormatMCPServers,
		"/p/mcp.json":                          FormatMCPServers,
		"/p/.cursor/mcp.json":                  FormatMCPServers,
		"/p/.vscode/mcp.json":                  FormatVSCode,
		"/c/Code/User/mcp.json":                FormatVSCode,
		"/p/User/mcp.json":                     FormatMCPServers,
		"/h/.codeium/windsurf/mcp_config.json": FormatMCPServers,
		"/h/.claude.json":                      FormatClaude,
		"/x/claude_desktop_config.json":        FormatClaudeDesktop,
		"/h/.gemini/settings.json":             FormatGemini,
		"/p/.gemini/settings.json":             FormatGemini,
		"/h/.config/zed/settings.json":         FormatZed,
		"/p/.zed/settings.json":                FormatZed,
		"/h/.codex/config.toml":                FormatCodex,
		"other.TOML":                           FormatCodex,
		"/p/.vscode/settings.json":             FormatMCPWire,
		"servers.jsonc":                        FormatMCPWire,
	}
	for file, want := range tests {
		if got := DetectFormat(file); got != want {
			t.Errorf("DetectFormat(%q) = %q, want %q", file, got, want)
		}
	}
}

// TestSecretsNeverInProblems loads definitions that go wrong in every way
// while secrets are in play, and checks no problem text holds them.
func TestSecretsNeverInProblems(t *testing.T) {
	const secret = "tok-9f8e7d6c5b4a"
	const literal = "lit-0a1b2c3d4e5f"
	env := map[string]string{"SECRET": secret, "NEWLINE": "a\r\nb" + secret, "BADURL": "https://" + secret + ":" + secret + "@h/%zz"}
	data := `{"mcpServers": {
		"h1": {"url": "https://user:` + literal + `@h/` + literal + `?key=` + literal + `", "headers": {"Authorization": "Bearer ${SECRET}", "Bad Name": "${SECRET}"}, "timeout": "x"},
		"h2": {"url": "ftp://user:${SECRET}@h/${SECRET}?k=${SECRET}", "headers": {"X": "${NEWLINE}"}},
		"h3": {"url": "${BADURL}"},
		"h4": {"url": "https://h/${SECRET}/${UNSET}"},
		"h5": {"url": "ftp://u:` + literal + `@files.example.com/` + literal + `"},
		"s1": {"command": "${SECRET}", "args": ["${SECRET}", "${UNSET}"], "env": {"K": "${SECRET}", "L": "` + literal + `", "=": "${SECRET}"}, "url": "https://x"},
		"s2": {"command": "run", "env": {"K": "${SECRET}\u0000"}, "envPolicy": "all", "type": "stdio"},
		"s3": {"type": "sse", "url": "wss://u:` + literal + `@h"}
	}}`
	servers, problems := parseOne(t, FormatMCPServers, data, env)
	if len(servers) != 0 {
		for _, s := range servers {
			t.Errorf("loaded %s; every definition here is broken", s.Name)
		}
	}
	if len(problems) < 8 {
		t.Fatalf("only %d problems: %v", len(problems), problems)
	}
	for _, p := range problems {
		e := p.Error()
		if strings.Contains(e, secret) || strings.Contains(e, literal) {
			t.Errorf("problem leaks a secret: %s", e)
		}
	}
	wantProblem(t, problems, `server "h5"`, "(ftp://files.example.com/…)")
}

func TestServerStringHasNoSecrets(t *testing.T) {
	const secret = "tok-1234"
	servers, _ := parseOne(t, FormatMCPServers, `{"mcpServers": {"a": {"url": "https://u:`+secret+`@h/`+secret+`", "headers": {"A": "`+secret+`"}}}}`, nil)
	s := servers["a"]
	for _, out := range []string{s.String(), strings.Join([]string{s.Source.String()}, "")} {
		if strings.Contains(out, secret) {
			t.Errorf("String leaks: %s", out)
		}
	}
	if s.String() != "a (auto, test.json:1)" {
		t.Errorf("String() = %q", s.String())
	}
}

func TestRawAndCacheKey(t *testing.T) {
	parse := func(data string, env map[string]string) *Server {
		t.Helper()
		servers, problems := parseOne(t, FormatMCPServers, data, env)
		if len(errorsOf(problems)) != 0 || servers["gh"] == nil {
			t.Fatalf("problems %v", problems)
		}
		return servers["gh"]
	}
	base := parse(`{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "srv"], "env": {"T": "${GH_TOKEN}"}}}}`, map[string]string{"GH_TOKEN": "one"})
	if got, want := string(base.Raw), `{"args":["-y","srv"],"command":"npx","env":{"T":"${GH_TOKEN}"}}`; got != want {
		t.Errorf("Raw = %s, want %s", got, want)
	}
	key := base.CacheKey()
	if len(key) != 64 || strings.Trim(key, "0123456789abcdef") != "" {
		t.Errorf("CacheKey %q is not hex sha256", key)
	}

	rotated := parse(`{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "srv"], "env": {"T": "${GH_TOKEN}"}}}}`, map[string]string{"GH_TOKEN": "two"})
	if rotated.CacheKey() != key {
		t.Error("a rotated secret changed the cache key")
	}
	relaid := parse("{\"mcpServers\": {\"gh\": {\n  // reordered\n  \"env\": {\"T\": \"${GH_TOKEN}\"},\n  \"args\": [\"-y\", \"srv\"],\n  \"command\": \"npx\",\n}}}", map[string]string{"GH_TOKEN": "x"})
	if relaid.CacheKey() != key {
		t.Error("layout, comments or key order changed the cache key")
	}
	for _, changed := range []string{
		`{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "srv@2"], "env": {"T": "${GH_TOKEN}"}}}}`,
		`{"mcpServers": {"gh": {"command": "bunx", "args": ["-y", "srv"], "env": {"T": "${GH_TOKEN}"}}}}`,
		`{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "srv"], "env": {"T": "${OTHER_TOKEN}"}}}}`,
	} {
		if parse(changed, map[string]string{"GH_TOKEN": "one", "OTHER_TOKEN": "one"}).CacheKey() == key {
			t.Errorf("changed definition kept the key: %s", changed)
		}
	}
	renamed := *base
	renamed.Name = "gh2"
	if renamed.CacheKey() == key {
		t.Error("the name is part of the key")
	}
}
