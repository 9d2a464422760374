package browser

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcpwire/mcpwire/mcptest"
)

// sloppyServer is an HTTP MCP server with a duplicate tool name, a tool
// without a title, and a tool whose result fails its outputSchema.
func sloppyServer(t *testing.T) string {
	srv := mcptest.NewServer(&mcptest.Options{Capabilities: json.RawMessage(`{"tools":{}}`)})
	obj := json.RawMessage(`{"type":"object"}`)
	srv.SetTools([]mcptest.Tool{
		{Name: "twice", Title: "Twice", InputSchema: obj},
		{Name: "twice", Title: "Twice again", InputSchema: obj},
		{Name: "count", InputSchema: obj, OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`)},
	}, func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		return &mcptest.ToolResult{Content: []mcptest.Content{mcptest.TextContent("{}")}, StructuredContent: json.RawMessage(`{"n":"three"}`)}, nil
	})
	return mcptest.NewHTTPServer(t, srv, nil).URL
}

// A result that fails its outputSchema shows the verdict beside it, and
// the server's report lists that, the duplicate name and the missing
// title.
func TestCorrectnessReport(t *testing.T) {
	page := inspector(t, sloppyServer(t))
	ctx := browser(t)
	run(t, ctx, "call count",
		chromedp.Navigate(page),
		callTool("count", nil),
		chromedp.WaitVisible(css(`#call-result .schema-verdict.verdict-error`)),
	)
	if v := get(t, ctx, "read the verdict", chromedp.Text(css(`#call-result .schema-verdict`))); !strings.Contains(v, "outputSchema") {
		t.Errorf("verdict %q", v)
	}
	run(t, ctx, "open the report",
		tab("report"),
		chromedp.WaitVisible(css(`#report-summary`)),
	)
	shot(t, ctx, "report")
	for check, want := range map[string]string{
		"names are unique":                 `tool "twice"`,
		"everything has a title":           `tool "count"`,
		"results match their outputSchema": `tool "count" (call #1)`,
	} {
		got := get(t, ctx, "read "+check, chromedp.Text(css(`#report [data-check="`+check+`"]`)))
		if !strings.Contains(got, want) {
			t.Errorf("%s: %q lacks %q", check, got, want)
		}
	}
	if pass := get(t, ctx, "read the passing checks", chromedp.Evaluate[int](`document.querySelectorAll("#report .report-check.pass").length`)); pass != 3 {
		t.Errorf("%d checks pass, want 3 (schemas, capabilities, protocol)", pass)
	}
}
