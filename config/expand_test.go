package config

import (
	"errors"
	"strings"
	"testing"
)

func testResolver(env map[string]string) *resolver {
	return &resolver{
		env:       func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		inputs:    map[string]string{"given": "from-inputs"},
		declared:  map[string]string{"api-key": "API Key", "given": ""},
		workspace: "/work/proj",
		home:      "/home/dev",
	}
}

func TestExpand(t *testing.T) {
	env := map[string]string{
		"HOME":                   "/h",
		"TOKEN":                  "tok",
		"EMPTY":                  "",
		"MCPWIRE_INPUT_API_KEY":  "from-env",
		"workspaceFolderCustom":  "custom",
		"NESTED":                 "n",
		"MCPWIRE_INPUT_OTHER_ID": "other",
	}
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"", ""},
		{"${TOKEN}", "tok"},
		{"Bearer ${TOKEN}!", "Bearer tok!"},
		{"${TOKEN}${TOKEN}", "toktok"},
		{"${env:TOKEN}", "tok"},
		{"${UNSET:-fallback}", "fallback"},
		{"${EMPTY:-fallback}", "fallback"}, // shell :- semantics: empty counts as unset
		{"${EMPTY}", ""},
		{"${TOKEN:-fallback}", "tok"},
		{"${UNSET:-}", ""},
		{"${UNSET:-a:-b}", "a:-b"},
		{"${UNSET:-${NESTED}}", "n"},
		{"${UNSET:-${ALSO_UNSET:-deep}}", "deep"},
		{"${env:UNSET:-d}", "d"},
		{"${input:given}", "from-inputs"},
		{"${input:api-key}", "from-env"},
		{"${input:otherId}", "other"},
		{"${workspaceFolder}/bin", "/work/proj/bin"},
		{"${userHome}/.cache", "/home/dev/.cache"},
		{"${workspaceFolderCustom}", "custom"},
		{"$HOME", "$HOME"},
		{"$$", "$$"},
		{"a$", "a$"},
		{"$${TOKEN}", "${TOKEN}"},
		{"$$${TOKEN}", "$${TOKEN}"}, // "$" then the escape "$${"
		{"${UNSET:-$${x}}", "${x}"},
		{"100%{x}", "100%{x}"},
		{"}{", "}{"},
	}
	r := testResolver(env)
	for _, tt := range tests {
		got, err := r.expand(tt.in)
		if err != nil {
			t.Errorf("expand(%q): %v", tt.in, err)
			continue
		}
		if got != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExpandErrors(t *testing.T) {
	const secret = "s3cr3t-value"
	env := map[string]string{"TOKEN": secret}
	tests := []struct {
		in   string
		want []string // substrings of the error
	}{
		{"${UNSET}", []string{`variable "UNSET" is not set`}},
		{"x ${TOKEN} ${UNSET}", []string{`"UNSET"`}},
		{"${env:UNSET}", []string{`environment variable "UNSET" is not set`}},
		{"${input:api-key}", []string{`input "api-key" ("API Key") has no value`, "MCPWIRE_INPUT_API_KEY"}},
		{"${input:nope}", []string{`input "nope"`, `not declared`, "MCPWIRE_INPUT_NOPE"}},
		{"${input:}", []string{"empty input id"}},
		{"${}", []string{"empty reference"}},
		{"${TOKEN", []string{"unterminated"}},
		{"${UNSET:-${TOKEN}", []string{"unterminated"}},
		{"${1BAD}", []string{`invalid variable name in "${1BAD}"`}},
		{"${A B}", []string{`invalid variable name in "${A…}"`}},
		{"${VAR-default}", []string{`invalid variable name in "${VAR…}"`}},
		{"${config:editor.tabSize}", []string{"unsupported reference", `"${config:…}"`}},
		{"${command:pick}", []string{"unsupported reference"}},
	}
	r := testResolver(env)
	r.workspace, r.home = "", "" // unknown dirs fall back to the environment
	tests = append(tests, struct {
		in   string
		want []string
	}{"${workspaceFolder}", []string{`"workspaceFolder" is not set`}})
	for _, tt := range tests {
		got, err := r.expand(tt.in)
		if err == nil {
			t.Errorf("expand(%q) = %q, want an error", tt.in, got)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("expand(%q) error %q lacks %q", tt.in, err, w)
			}
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("expand(%q) error leaks the secret: %q", tt.in, err)
		}
		if strings.Contains(err.Error(), "LoadOptions") {
			t.Errorf("expand(%q) error names a Go API a CLI user cannot use: %q", tt.in, err)
		}
	}
}

// TestExpandErrorsMaskMalformedReferences: a secret written where a name
// or a default was meant (${TOKEN:sk-live-…}) is not quoted back.
func TestExpandErrorsMaskMalformedReferences(t *testing.T) {
	const secret = "sk-live-4f9a8b7c"
	r := testResolver(nil)
	for _, in := range []string{
		"${TOKEN:" + secret + "}",
		"Bearer ${TOKEN:" + secret + "}",
		"${env:TOKEN:" + secret + "}",
		"${env:TOKEN " + secret + "}",
		"${TOKEN " + secret + "}",
		"${TOKEN=" + secret + "}",
		"${" + secret + "}",
	} {
		_, err := r.expand(in)
		if err == nil {
			t.Errorf("expand(%q): want an error", in)
			continue
		}
		if strings.Contains(err.Error(), "4f9a8b7c") || strings.Contains(err.Error(), "live") {
			t.Errorf("expand(%q) error quotes what follows the name: %q", in, err)
		}
		if !strings.Contains(err.Error(), "…") {
			t.Errorf("expand(%q) error %q does not show where the mask is", in, err)
		}
	}
	_, err := r.expand("${TOKEN:" + secret + "}")
	if want := `"${TOKEN:…}"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want it to quote %s", err, want)
	}
}

// TestMissingInputIsTyped: a caller finds the input's id in the problem,
// through Set.Err, to say how to give the value, and whether to hide it
// when it asks for it.
func TestMissingInputIsTyped(t *testing.T) {
	doc := `{"inputs": [{"id": "gh-token", "description": "GitHub token", "password": true}],
	"servers": {"gh": {"url": "https://h.example/mcp", "headers": {"Authorization": "Bearer ${input:gh-token}"}}}}`
	servers, problems := Parse([]byte(doc), ".vscode/mcp.json", FormatVSCode, LoadOptions{Env: envOf(nil)})
	if len(servers) != 0 {
		t.Fatalf("servers %v, want none", servers)
	}
	set := &Set{Problems: problems}
	var missing *MissingInputError
	if !errors.As(set.Err(), &missing) {
		t.Fatalf("errors.As(%v) found no *MissingInputError", set.Err())
	}
	want := MissingInputError{ID: "gh-token", Description: "GitHub token", Declared: true, Password: true, EnvName: "MCPWIRE_INPUT_GH_TOKEN"}
	if *missing != want {
		t.Errorf("got %+v, want %+v", *missing, want)
	}
	wantProblem(t, problems, `server "gh": headers.Authorization: input "gh-token" ("GitHub token") has no value`)
}

func TestInputEnvName(t *testing.T) {
	tests := map[string]string{
		"api-key":        "MCPWIRE_INPUT_API_KEY",
		"apiKey":         "MCPWIRE_INPUT_API_KEY",
		"APIKey":         "MCPWIRE_INPUT_API_KEY",
		"github_pat":     "MCPWIRE_INPUT_GITHUB_PAT",
		"perplexity-key": "MCPWIRE_INPUT_PERPLEXITY_KEY",
		"token2Fa":       "MCPWIRE_INPUT_TOKEN2_FA",
		"a..b":           "MCPWIRE_INPUT_A_B",
		"-x-":            "MCPWIRE_INPUT_X",
		"ünï":            "MCPWIRE_INPUT_N",
		"ID":             "MCPWIRE_INPUT_ID",
	}
	for id, want := range tests {
		if got := InputEnvName(id); got != want {
			t.Errorf("InputEnvName(%q) = %q, want %q", id, got, want)
		}
	}
}
