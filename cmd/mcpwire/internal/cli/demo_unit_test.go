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
