package cli

import (
	"fmt"
	"io"
	"strings"
)

// The detail views (one tool, a server's info) print server text next
// to mcpwire's own labels ("Title:", "Parameters:", "Server:"). A value
// that is one line by nature (a name, a title, a version) goes through
// sanitizeLine, so that a newline in it shows as ^J; prose (a
// description, instructions) goes through writeProse.

// writeProse writes a server's prose under label: "label:", then each of
// its lines indented by two spaces, blank ones empty. Its line breaks
// stay, but none of its lines starts at column 0, where the labels are,
// so none passes for one of them.
func writeProse(w io.Writer, label, text string) {
	fmt.Fprintf(w, "%s:\n", label)
	for line := range strings.SplitSeq(Sanitize(strings.TrimSpace(text)), "\n") {
		if line = strings.TrimRight(line, " \t"); line == "" {
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "  %s\n", line)
	}
}
