//go:build unix

package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder writes a script that saves its arguments, one a line, to a
// file, and returns the script and the file.
func recorder(t *testing.T) (script, saved string) {
	t.Helper()
	dir := t.TempDir()
	script, saved = filepath.Join(dir, "open"), filepath.Join(dir, "args")
	body := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + saved + "\n"
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	return script, saved
}

// $BROWSER is a list tried in turn, and %s places the URL (which stays
// one argument, shell characters and all); without %s the URL comes last.
func TestOpenBrowserList(t *testing.T) {
	const url = "http://127.0.0.1:1/cb?a=1&b=$(x) y"
	for _, tc := range []struct {
		name, list string
		want       []string
	}{
		{"placed", "/nonexistent/browser:SCRIPT --new-tab=%s 100%%", []string{"--new-tab=" + url, "100%"}},
		{"appended", "SCRIPT --new-tab", []string{"--new-tab", url}},
		{"empty entries skipped", "::SCRIPT", []string{url}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			script, saved := recorder(t)
			t.Setenv("BROWSER", strings.ReplaceAll(tc.list, "SCRIPT", script))
			if err := Open(t.Context(), url); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(saved)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("the opener got %q, want %q", got, tc.want)
			}
		})
	}
	t.Run("none works", func(t *testing.T) {
		t.Setenv("BROWSER", "/nonexistent/a:/nonexistent/b")
		err := Open(t.Context(), url)
		if err == nil || !strings.Contains(err.Error(), "/nonexistent/a") || !strings.Contains(err.Error(), "/nonexistent/b") {
			t.Errorf("err = %v, want both commands named", err)
		}
	})
}
