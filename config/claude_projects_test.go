package config

import "testing"

// A ~/.claude.json whose entry for this directory is not an object has no
// servers to give, and says so (a warning, as any other part of another
// tool's file of the wrong type): it was skipped without a word.
func TestClaudeProjectEntryOfTheWrongType(t *testing.T) {
	doc := `{"projects": {"/proj": []}, "mcpServers": {"u": {"command": "x"}}}`
	servers, problems := Parse([]byte(doc), ".claude.json", FormatClaude, LoadOptions{Dir: "/proj"})
	if len(servers) != 1 || servers[0].Name != "u" {
		t.Errorf("servers %v, want the user-level one", servers)
	}
	wantProblem(t, problems, `.claude.json:1:24`, `projects["/proj"]`, "want an object, got array")
	_, problems = Parse([]byte(`{"projects": []}`), ".claude.json", FormatClaude, LoadOptions{Dir: "/proj"})
	wantProblem(t, problems, "projects", "want an object")
}
