package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/interop"
)

func TestToolsTable(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("tools"), server())...).wantCode(t, 0)
	golden(t, "tools.golden", r.out)
	if r.err != "" {
		t.Errorf("stderr not empty: %q", r.err)
	}
}

func TestToolsTableFitsTheTerminal(t *testing.T) {
	t.Parallel()
	r := runIO(t, t.Context(), &IOStreams{Width: 40}, args(a("tools"), server())...).wantCode(t, 0)
	for _, line := range strings.Split(strings.TrimSuffix(r.out, "\n"), "\n") {
		if n := utf8.RuneCountInString(line); n > 40 {
			t.Errorf("line is %d columns wide on a 40-column terminal: %q", n, line)
		}
	}
	if !strings.Contains(r.out, "…") {
		t.Errorf("nothing was cut at 40 columns:\n%s", r.out)
	}
}

func TestToolsJSON(t *testing.T) {
	t.Parallel()
	r := run(t, args(a("tools", "--json"), server())...).wantCode(t, 0)
	golden(t, "tools.json.golden", r.out)
	var v struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.out), &v); err != nil {
		t.Fatalf("--json output is not JSON: %v", err)
	}
	if len(v.Tools) == 0 || v.Tools[0].Name != "echo" || len(v.Tools[0].InputSchema) == 0 {
		t.Errorf("tools = %+v", v.Tools)
	}
}

// Flags may come before or after the command's arguments.
func TestFlagsAnywhere(t *testing.T) {
	t.Parallel()
	r1 := run(t, args(a("call", "echo", "--arg", "message=x", "--json"), pinModern, server())...).wantCode(t, 0)
	r2 := run(t, args(a("call", "--json", "--arg", "message=x", "echo"), pinModern, server())...).wantCode(t, 0)
	if r1.out != r2.out {
		t.Errorf("flag order changed the output:\n%s\n%s", r1.out, r2.out)
	}
}

// No table cell is cut in a pipe or with --wide: server-filesystem's
// signatures are longer than 40 columns.
func TestToolsTableUncutInAPipeAndWithWide(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	command, argv := interop.ServerFilesystem(t, root)
	target := append([]string{"--", command}, argv...)
	const long = "(path: string, edits: object[], dryRun?: boolean)"
	for _, c := range []struct {
		name  string
		io    *IOStreams
		flags []string
	}{
		{"pipe", &IOStreams{}, nil},
		{"--wide on an 80-column terminal", &IOStreams{Width: 80}, a("--wide")},
	} {
		r := runIO(t, t.Context(), c.io, args(a("tools"), c.flags, target)...).wantCode(t, 0)
		if strings.Contains(r.out, "…") || !strings.Contains(r.out, long) {
			t.Errorf("%s: a cell was cut:\n%s", c.name, r.out)
		}
	}
}
