package cli

import (
	"flag"
	"slices"
	"strings"
)

// OutputFlags choose the output's form: --format (with --json for
// --format json) and --wide.
type OutputFlags struct {
	JSON   bool
	Format string
	Wide   bool

	formats []string
}

// Register adds --json, --format and --wide. formats are the --format
// values the command knows; the first is its default.
func (f *OutputFlags) Register(fs *flag.FlagSet, formats ...string) {
	if len(formats) == 0 {
		formats = []string{"text", "json"}
	}
	f.formats = formats
	JSONFlag(fs, &f.JSON)
	fs.StringVar(&f.Format, "format", "", "output `FORMAT`: "+strings.Join(formats, ", ")+" (default "+formats[0]+")")
	if slices.Contains(formats, "table") {
		fs.BoolVar(&f.Wide, "wide", false, "never cut table cells to the terminal's width")
	}
}

// Resolve checks the flags and returns the format in effect.
func (f *OutputFlags) Resolve() (string, error) {
	switch {
	case f.JSON && f.Format != "" && f.Format != "json":
		return "", Usagef("--json and --format %s disagree; give one", f.Format)
	case f.JSON:
		return "json", nil
	case f.Format == "":
		if len(f.formats) == 0 {
			return "text", nil
		}
		return f.formats[0], nil
	case !slices.Contains(f.formats, f.Format):
		return "", Usagef("--format must be one of %s, not %q", strings.Join(f.formats, ", "), f.Format)
	}
	return f.Format, nil
}

// width is the table width for io: unlimited (0) with --wide.
func (f *OutputFlags) width(io *IOStreams) int {
	if f.Wide {
		return 0
	}
	return io.TableWidth()
}
