package cli

import (
	"bytes"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

func TestSummary(t *testing.T) {
	cases := []struct {
		tool mcp.Tool
		want string
	}{
		{mcp.Tool{Name: "echo", Description: "Echoes.\nMore detail."}, "Echoes."},
		{mcp.Tool{Name: "echo", Title: "Echo", Description: "\n  Echoes.  \n"}, "Echo - Echoes."},
		{mcp.Tool{Name: "echo", Title: "echo", Description: "Echoes."}, "Echoes."},
		{mcp.Tool{Name: "x", Annotations: &mcp.ToolAnnotations{Title: "Annotated"}}, "Annotated"},
		{mcp.Tool{Name: "x"}, ""},
	}
	for _, c := range cases {
		if got := toolSummary(c.tool); got != c.want {
			t.Errorf("toolSummary(%+v) = %q, want %q", c.tool, got, c.want)
		}
	}
}

func TestPrintTableEmpty(t *testing.T) {
	var b bytes.Buffer
	printToolTable(&b, 80, nil)
	if b.String() != "(no tools)\n" {
		t.Errorf("got %q", b.String())
	}
}
