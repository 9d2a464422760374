package cli

import (
	"fmt"
	"strings"
	"testing"
)

// transcript runs each case against target, one after another (a case may
// depend on what an earlier one changed on the server), and returns what
// a user would have seen: the command line, the exit status, stdout and
// stderr. Golden files of transcripts show a whole session with a real
// server in one reviewable place.
//
// normalise rewrites what truly varies between runs (temporary paths,
// ports); it is applied to the command line and to both streams.
func transcript(t *testing.T, target []string, normalise func(string) string, cases ...[]string) string {
	t.Helper()
	var b strings.Builder
	for i, c := range cases {
		r := run(t, args(c, target)...)
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "$ mcpwire %s\nexit %d\n", normalise(strings.Join(c, " ")), r.code)
		writeStream(&b, "stdout", normalise(r.out))
		writeStream(&b, "stderr", normalise(r.err))
	}
	return b.String()
}

// writeStream writes a stream's text under its name, ending in exactly one
// newline so that a missing final newline shows as "(no newline)".
func writeStream(b *strings.Builder, name, text string) {
	if text == "" {
		return
	}
	fmt.Fprintf(b, "--- %s\n%s", name, text)
	if !strings.HasSuffix(text, "\n") {
		b.WriteString("\n(no newline)\n")
	}
}

// wantExits fails the test when the transcript's exit statuses, in order,
// are not want: the golden file holds them too, but this names the
// contract (a usage error is 2, a refused call 5) in the test itself.
func wantExits(t *testing.T, got string, want ...int) {
	t.Helper()
	var codes []int
	for _, line := range strings.Split(got, "\n") {
		var n int
		if _, err := fmt.Sscanf(line, "exit %d", &n); err == nil && strings.HasPrefix(line, "exit ") {
			codes = append(codes, n)
		}
	}
	if fmt.Sprint(codes) != fmt.Sprint(want) {
		t.Errorf("exit statuses %v, want %v", codes, want)
	}
}
