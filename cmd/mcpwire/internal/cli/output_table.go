package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Table writes rows as aligned columns separated by two spaces. With a
// width above 0 the last column is cut so every line fits in width (at least a few of its
// characters are always kept). header may be nil. Cells are server text:
// they are sanitized and folded onto one line.
func Table(w io.Writer, width int, header []string, rows [][]string) {
	var all [][]string
	if header != nil {
		all = append(all, header)
	}
	for _, r := range rows {
		if len(r) == 0 {
			continue
		}
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = Sanitize(strings.Join(strings.Fields(c), " "))
		}
		all = append(all, cells)
	}
	if len(all) == 0 {
		return
	}
	cols := 0
	for _, r := range all {
		cols = max(cols, len(r))
	}
	widths := make([]int, cols)
	for _, r := range all {
		for i, c := range r[:len(r)-1] {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	capMiddle(widths, width)
	for _, r := range all {
		var b strings.Builder
		for i, c := range r {
			if i == len(r)-1 && width <= 0 {
				b.WriteString(c)
				break
			}
			if i == len(r)-1 {
				room := max(width-utf8.RuneCountInString(b.String()), 10)
				b.WriteString(Truncate(c, room))
				break
			}
			c = Truncate(c, widths[i])
			b.WriteString(c)
			b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// Truncate cuts s to at most n runes, ending in "…" when it cut.
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// FirstLine is s's first non-empty line, trimmed.
func FirstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// Describe is an entry's one-line description in a listing: its title,
// unless empty or the same as its name, and the first line of desc,
// joined by " - " when both are there. With name "" a title is always
// shown.
func Describe(name, title, desc string) string {
	d := FirstLine(desc)
	switch {
	case title == "" || title == name:
		return d
	case d == "":
		return title
	}
	return title + " - " + d
}

// capMiddle narrows the columns between the first and the last when the
// table would not leave the last column 10 characters of width: each is
// cut to a share of what the first column leaves, at least 8.
func capMiddle(widths []int, width int) {
	if width <= 0 || len(widths) < 3 {
		return
	}
	used := 0
	for _, w := range widths {
		used += w + 2
	}
	if used+10 <= width {
		return
	}
	share := max(8, (width-widths[0]-2)/len(widths))
	for i := 1; i < len(widths)-1; i++ {
		widths[i] = min(widths[i], share)
	}
}
