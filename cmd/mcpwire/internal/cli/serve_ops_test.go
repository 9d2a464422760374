package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// serve honours each server's enabledTools and disabledTools, in the list
// and in calls, and --audit-log --audit-args writes a line per call with
// secret-looking arguments and the config's secrets blanked.
func TestServeToolFiltersAndAuditLog(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	server := func(extra map[string]any) string {
		def := map[string]any{"command": os.Args[0], "args": []string{ServeName}}
		for k, v := range extra {
			def[k] = v
		}
		b, _ := json.Marshal(def)
		return string(b)
	}
	cfg := filepath.Join(t.TempDir(), "servers.json")
	write(t, cfg, `{"mcpServers": {
		"alpha": `+server(map[string]any{"enabledTools": []string{"echo", "add"}, "env": map[string]string{"ALPHA_API_KEY": "configured-secret-xyz"}})+`,
		"beta": `+server(map[string]any{"disabledTools": []string{"echo"}})+`}}`)
	audit := filepath.Join(t.TempDir(), "audit.jsonl")
	c := gatewayClient(t, nil, "--config", cfg, "--audit-log", audit, "--audit-args")

	names := toolNames(t, c)
	for _, want := range []string{"alpha__echo", "alpha__add", "beta__add"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list lacks %s: %v", want, names)
		}
	}
	for _, unwanted := range []string{"alpha__slow", "beta__echo"} {
		if slices.Contains(names, unwanted) {
			t.Errorf("tools/list has the filtered-out %s: %v", unwanted, names)
		}
	}
	if res, err := c.CallTool(t.Context(), "beta__echo", map[string]any{"message": "x"}, nil); err == nil && !res.IsError {
		t.Errorf("a call to a disabled tool went through: %+v", res)
	}
	res, err := c.CallTool(t.Context(), "alpha__echo", map[string]any{"message": "key configured-secret-xyz", "auth_token": "tok-abcdef"}, nil)
	if err != nil || res.IsError {
		t.Fatalf("alpha__echo: %v %+v", err, res)
	}
	_ = c.Close()

	b, err := os.ReadFile(audit)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "configured-secret-xyz") || strings.Contains(string(b), "tok-abcdef") {
		t.Fatalf("the audit log shows a secret:\n%s", b)
	}
	var last struct {
		Who, Server, Tool, Outcome string
		Arguments                  map[string]string
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatalf("%v:\n%s", err, b)
	}
	if last.Who != "stdio" || last.Server != "alpha" || last.Tool != "echo" || last.Outcome != "ok" ||
		last.Arguments["auth_token"] != "***" || last.Arguments["message"] != "key ***" {
		t.Errorf("audit line: %+v", last)
	}
}
