package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readmeBlock returns the fenced block after marker in the README.
func readmeBlock(t *testing.T, readme, marker string) string {
	t.Helper()
	_, after, ok := strings.Cut(readme, marker)
	if !ok {
		t.Fatalf("README.md has no %s", marker)
	}
	_, after, ok = strings.Cut(after, "```")
	if !ok {
		t.Fatalf("no code block after %s", marker)
	}
	_, body, _ := strings.Cut(after, "\n") // the fence's info string
	body, _, ok = strings.Cut(body, "```")
	if !ok {
		t.Fatalf("the code block after %s does not end", marker)
	}
	return body
}

// The README's jq script runs as written and prints what the README says.
func TestREADMEScript(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("jq is not installed: the README's script needs it")
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	script := readmeBlock(t, string(readme), "<!-- readme-script -->")
	want := readmeBlock(t, string(readme), "<!-- readme-output -->")
	cmd := exec.Command("bash", "-o", "pipefail", "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the script failed: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if stdout.String() != want {
		t.Errorf("the script printed\n%s\nthe README says\n%s", stdout.String(), want)
	}
}
