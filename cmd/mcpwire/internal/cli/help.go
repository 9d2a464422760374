package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// helpWidth is the width help text is wrapped to: a terminal's least.
const helpWidth = 80

// flagColumn is where a flag's usage text starts.
const flagColumn = 26

// PrintHelp writes the command's help: synopsis, description, then the
// flags fs has, the command's own first and the shared ones under their
// headings (flagsets.go), and the global -h last.
func (c *Command) PrintHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: mcpwire %s\n\n", c.Usage)
	if d := strings.TrimSpace(c.Description); d != "" {
		fmt.Fprintf(w, "%s\n\n", d)
	} else if c.Summary != "" {
		fmt.Fprintf(w, "%s.\n\n", c.Summary)
	}
	for _, g := range groupFlags(fs) {
		fmt.Fprintf(w, "%s:\n", g.title)
		for _, n := range g.names {
			f := fs.Lookup(n)
			fmt.Fprint(w, flagLine(f, aliasesOf(fs, n)))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "Global flags:\n"+flagHelp("  -h, --help", "show this help"))
}

// FlagDefaults formats every flag of fs for help output, one per entry,
// "--name ARG" with the usage text after it.
func FlagDefaults(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) { b.WriteString(flagLine(f, "")) })
	return b.String()
}

// flagLine is one flag's entry: "--name ARG", its usage, the default when
// it has one that says something and the usage does not already say it,
// and extra (its aliases).
func flagLine(f *flag.Flag, extra string) string {
	arg, usage := flag.UnquoteUsage(f)
	head := "  --" + f.Name
	if !isBool(f) {
		if arg == "" {
			arg = "value"
		}
		head += " " + arg
	}
	if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "[]" && !strings.Contains(usage, "(default") {
		usage += fmt.Sprintf(" (default %s)", f.DefValue)
	}
	return flagHelp(head, usage+extra)
}

// flagHelp lays out head and its text: the text from flagColumn on,
// wrapped to helpWidth; a head too long for the column gets a line of its
// own.
func flagHelp(head, text string) string {
	var b strings.Builder
	b.WriteString(head)
	col := len(head)
	if col >= flagColumn {
		b.WriteString("\n")
		col = 0
	}
	b.WriteString(strings.Repeat(" ", flagColumn-col))
	b.WriteString(wrap(text, helpWidth-flagColumn, "\n"+strings.Repeat(" ", flagColumn)))
	b.WriteString("\n")
	return b.String()
}

// wrap breaks text at spaces into lines of at most width bytes (a word
// longer than that stands alone), joined by sep.
func wrap(text string, width int, sep string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		switch {
		case line == "":
			line = word
		case len(line)+1+len(word) > width:
			lines = append(lines, line)
			line = word
		default:
			line += " " + word
		}
	}
	return strings.Join(append(lines, line), sep)
}
