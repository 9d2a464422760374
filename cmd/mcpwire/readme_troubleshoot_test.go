package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// troubleshootEntry is a marked entry of the README's Troubleshooting:
// "<!-- troubleshoot: SHELL -->", then a paragraph that starts with the
// message in bold code.
var troubleshootEntry = regexp.MustCompile("<!-- troubleshoot: (.*) -->\n\\*\\*`([^`]+)`")

// The README's Troubleshooting quotes what mcpwire prints: each marked
// entry's command runs in an empty directory with a fresh home, and its
// output must contain the quoted message.
func TestREADMETroubleshooting(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	entries := troubleshootEntry.FindAllStringSubmatch(string(readme), -1)
	if len(entries) < 8 {
		t.Fatalf("README.md has %d marked troubleshooting entries, want at least 8", len(entries))
	}
	for _, e := range entries {
		script, want := e[1], e[2]
		t.Run(want, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.CommandContext(t.Context(), "/bin/sh", "-c", script)
			cmd.Dir = dir
			home := filepath.Join(dir, ".home")
			cmd.Env = []string{
				"PATH=" + filepath.Dir(binary) + string(os.PathListSeparator) + os.Getenv("PATH"),
				"HOME=" + home,
				"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
				"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
			}
			out, _ := cmd.CombinedOutput()
			if !strings.Contains(string(out), want) {
				t.Errorf("%s\nprints\n%s\nthe README quotes %q", script, out, want)
			}
		})
	}
}
