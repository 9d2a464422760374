package cli

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// Completion offers commands, tool names, a tool's argument names in
// schema order, an enum's values after "K=", and log levels.
func TestShellCandidates(t *testing.T) {
	t.Parallel()
	sh := &shell{tools: []mcp.Tool{
		{Name: "paint", InputSchema: json.RawMessage(`{"type":"object","properties":{"color":{"type":"string","enum":["red","green","grey"]},"coats":{"type":"integer"}}}`)},
		{Name: "pack"},
	}}
	for line, want := range map[string][]string{
		"":                   shellNames(),
		"pr":                 {"prompts", "prompt"}, // in help's order
		"call p":             {"paint", "pack"},
		"call pai":           {"paint"},
		"call paint ":        {"color=", "coats="},
		"call paint co":      {"color=", "coats="},
		"call paint col":     {"color="},
		"call paint color=g": {"color=green", "color=grey"},
		"call nosuch ":       nil,
		"log w":              {"warning"},
	} {
		if got := sh.candidates(t.Context(), line); !slices.Equal(got, want) {
			t.Errorf("candidates(%q) = %q, want %q", line, got, want)
		}
	}
}
