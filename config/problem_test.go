package config

import (
	"errors"
	"testing"
)

func TestProblemError(t *testing.T) {
	tests := []struct {
		p    Problem
		want string
	}{
		{Problem{File: "a.json", Line: 3, Col: 7, Server: "gh", Field: "args[2]", Msg: "bad"}, `a.json:3:7: server "gh": args[2]: bad`},
		{Problem{File: "a.json", Line: 3, Server: "gh", Msg: "bad"}, `a.json:3: server "gh": bad`},
		{Problem{File: "a.json", Msg: "cannot read: permission denied"}, `a.json: cannot read: permission denied`},
		{Problem{File: "a.json", Line: 1, Col: 2, Msg: "x", Warning: true}, `a.json:1:2: warning: x`},
		{Problem{Server: "s", Field: "url", Msg: "empty URL"}, `server "s": url: empty URL`},
		{Problem{Server: "a\"b", Msg: "m"}, `server "a\"b": m`},
	}
	for _, tt := range tests {
		if got := tt.p.Error(); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

func TestJoinProblemsSkipsWarnings(t *testing.T) {
	if err := joinProblems([]Problem{{Msg: "w", Warning: true}}); err != nil {
		t.Errorf("warnings only: %v", err)
	}
	err := joinProblems([]Problem{{Msg: "w", Warning: true}, {File: "f", Msg: "e1"}, {File: "g", Msg: "e2"}})
	if err == nil || err.Error() != "f: e1\ng: e2" {
		t.Errorf("joined: %v", err)
	}
	var p Problem
	if !errors.As(err, &p) || p.Msg != "e1" {
		t.Errorf("errors.As: %+v", p)
	}
}

func TestParseEnvDefaultsToProcess(t *testing.T) {
	t.Setenv("MCPWIRE_CONFIG_PARSE_TEST", "from-process")
	servers, problems := Parse([]byte(`{"mcpServers": {"a": {"command": "${MCPWIRE_CONFIG_PARSE_TEST}"}}}`), "f", FormatMCPServers, LoadOptions{})
	if len(problems) != 0 || len(servers) != 1 || servers[0].Command != "from-process" {
		t.Errorf("servers %v problems %v", servers, problems)
	}
}
