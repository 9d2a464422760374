package cli

import (
	"testing"
)

// The commands the demo shows must be ones a user can paste.
func TestArgFlags(t *testing.T) {
	got := argFlags(map[string]any{"message": "Hello from mcpwire!", "b": 3, "a": 2})
	want := " --arg a=2 --arg b=3 --arg 'message=Hello from mcpwire!'"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The program in the demo's commands is one that runs after the demo
// ends: not the deleted binary of "go run", and a path, quoted when it
// must be, for a binary that is not "mcpwire" on $PATH.
func TestDemoProgram(t *testing.T) {
	t.Chdir(t.TempDir()) // not the module's root
	t.Setenv("PATH", "")
	for exe, want := range map[string]string{
		"/tmp/go-build123/b001/exe/mcpwire": "go run github.com/mcpwire/mcpwire/cmd/mcpwire",
		"/opt/tools/mcpwire":                "/opt/tools/mcpwire",
		"/home/a user/bin/mcpwire":          "'/home/a user/bin/mcpwire'",
	} {
		if got := demoProgram(exe); got != want {
			t.Errorf("demoProgram(%q) = %q, want %q", exe, got, want)
		}
	}
}
