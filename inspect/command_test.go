package inspect

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The copied command is what a POSIX shell reads back as the call's
// words: the arguments and the target as they were, a secret masked
// however it must be quoted, and each --env variable taken from the
// environment of the shell that runs it (the page never holds its value);
// a name the shell cannot expand is left to fill in.
func TestCallCommandReadBackByAShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no POSIX shell here")
	}
	const secret = `it's-a-secret` // a quote: shellQuote writes it as '\''
	redact := func(s string) string { return strings.ReplaceAll(s, secret, "***") }
	target := []string{"--env", "API_KEY", "--env", "MY-VAR", "--inherit-env", "--", "my server", "--env", "API_KEY", "--token=" + secret}
	cmd := callCommand("demo", target, "echo", json.RawMessage(`{ "message": "don't $HOME" }`), redact)
	if strings.Contains(cmd, "secret") {
		t.Fatalf("the command holds the secret: %s", cmd)
	}
	// The shell prints each word of the command on a line of its own.
	c := exec.Command(sh, "-c", `set -- `+cmd+`; printf '%s\n' "$@"`)
	c.Env = append(os.Environ(), "API_KEY=from the shell")
	out, err := c.Output()
	if err != nil {
		t.Fatalf("the shell refused %s: %v", cmd, err)
	}
	got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	want := []string{"mcpwire", "call", "echo", "--args-json", `{"message":"don't $HOME"}`,
		"--env", "API_KEY=from the shell", "--env", "MY-VAR=***", "--inherit-env",
		// After "--" the words are the command's own, as given.
		"--", "my server", "--env", "API_KEY", "--token=***"}
	if !slices.Equal(got, want) {
		t.Errorf("the shell read %s as\n%q\nwant\n%q", cmd, got, want)
	}
}

// A configured server's tool is SERVER/TOOL, without arguments when the
// call has none.
func TestCallCommandConfigured(t *testing.T) {
	if got := callCommand("files", nil, "list", json.RawMessage(`{}`), func(s string) string { return s }); got != "mcpwire call files/list" {
		t.Errorf("got %s", got)
	}
}
