package auth

import (
	"strings"
	"testing"
)

// redactURL leaves out user info, query and fragment, also from a URL
// typed without its scheme's "//", where Go's parser finds no user info.
func TestRedactURLHidesCredentials(t *testing.T) {
	for _, raw := range []string{
		"https://u:s3cret@h.example/mcp?token=s3cret#s3cret",
		"u:s3cret@h.example/mcp",
		"s3cret@h.example/mcp",
		"http://s3cret@h.example/mcp",
		"https://h.example/%zz?s3cret", // unparsable
	} {
		got := redactURL(raw)
		if strings.Contains(got, "s3cret") {
			t.Errorf("redactURL(%q) = %q, shows the secret", raw, got)
		}
		if !strings.Contains(got, "h.example") {
			t.Errorf("redactURL(%q) = %q, lost the host", raw, got)
		}
	}
}
