package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// An outputSchema whose references run in a circle compiles, but no
// value can satisfy it: the validator stops at the cycle. That is a
// schema that cannot be used, not output that does not match it, so the
// call succeeds and the broken schema is reported once, as one that does
// not compile is; the output is not blamed for it.
func TestOutputSchemaWithRefCycle(t *testing.T) {
	schemas := map[string]string{
		"self":  `{"$ref":"#"}`,
		"pair":  `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		"inner": `{"type":"object","properties":{"v":{"allOf":[{"$ref":"#/properties/v"}]}}}`,
	}
	srv := mcptest.NewServer(nil)
	for name, schema := range schemas {
		srv.AddTool(mcptest.Tool{Name: name, OutputSchema: json.RawMessage(schema)},
			func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
				return &mcptest.ToolResult{Content: []mcptest.Content{mcptest.TextContent(`{"v":1}`)}, StructuredContent: json.RawMessage(`{"v":1}`)}, nil
			})
	}
	var h hookRecorder
	c, _ := connectMCPTest(t, srv, &ClientOptions{ErrorHook: h.hook})
	if _, err := c.ListTools(t.Context()); err != nil {
		t.Fatal(err)
	}
	for name := range schemas {
		for range 2 {
			res, err := c.CallTool(t.Context(), name, nil, nil)
			if err != nil || res == nil {
				t.Fatalf("%s: CallTool: %v", name, err)
			}
		}
	}
	errs := h.all()
	if len(errs) != len(schemas) {
		t.Fatalf("the ErrorHook got %d reports, want one per tool: %v", len(errs), errs)
	}
	for _, err := range errs {
		if msg := err.Error(); !strings.Contains(msg, "outputSchema") || !strings.Contains(msg, "cycle") {
			t.Errorf("report %q does not say the outputSchema's references form a cycle", msg)
		}
	}
}
