package config

import (
	"path/filepath"
	"slices"
	"testing"
)

// What a reviewer is shown of an untrusted file must be what would
// happen: the variables a sign-in would send a token from are read, and
// a cwd that a variable makes absolute is no folder of the project.
func TestInspectShowsWhatSignInReadsAndCwdAsWritten(t *testing.T) {
	d := newTestDirs(t)
	file := filepath.Join(d.project, "mcpwire.json")
	writeFile(t, file, `{"servers": {
  "wi": {"url": "https://127.0.0.1:9/mcp", "oauth": {"clientSecret": "${CLIENT_SECRET}", "workloadIdentity": {"tokenEnv": "WORKLOAD_TOKEN"}}},
  "ent": {"url": "https://127.0.0.1:9/mcp", "oauth": {"enterprise": {"idpTokenEndpoint": "https://127.0.0.1:9/token", "idTokenEnv": "SSO_ID_TOKEN"}}},
  "odd": {"url": "https://127.0.0.1:9/mcp", "oauth": {"workloadIdentity": {"tokenEnv": "${NAME_HOLDER}"}, "enterprise": 3}},
  "cw": {"command": "s", "cwd": "${SERVER_HOME}/run"},
  "rel": {"command": "s", "cwd": "sub/${PART}"}
}}`)
	in, err := Inspect(file, LoadOptions{Dir: d.project, HomeDir: d.home, Env: func(name string) (string, bool) {
		t.Errorf("Inspect looked up %q", name)
		return "", false
	}})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*Server{}
	for _, s := range in.Servers {
		byName[s.Name] = s
	}
	for name, want := range map[string][]string{
		"wi":  {"CLIENT_SECRET", "WORKLOAD_TOKEN"},
		"ent": {"SSO_ID_TOKEN"},
		"odd": {"NAME_HOLDER"},
	} {
		var got []string
		if s := byName[name]; s != nil {
			got = s.Vars
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s reads %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]string{"cw": "${SERVER_HOME}/run", "rel": filepath.Join(d.project, "sub", "${PART}")} {
		if s := byName[name]; s == nil {
			t.Errorf("%s missing", name)
		} else if s.Cwd != want {
			t.Errorf("%s's cwd %q, want %q", name, s.Cwd, want)
		}
	}
}
