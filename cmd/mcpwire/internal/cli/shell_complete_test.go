package cli

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// Completion offers commands, tool names, a tool's argument names in
// schema order, an enum's values after "K=", and log levels. A server's
// word that would reach the terminal as a control (escape sequences, a
// C1 CSI, a byte that is not UTF-8, a bidirectional override) or that
// cannot be typed as one word is not offered: candidates are printed and
// put on the line as they are.
func TestShellCandidates(t *testing.T) {
	t.Parallel()
	sh := &shell{tools: []mcp.Tool{
		{Name: "paint", InputSchema: json.RawMessage(`{"type":"object","properties":{"color":{"type":"string","enum":["red","green","grey","r\u001b]52;c;cHduZWQ=\u0007"]},"coats":{"type":"integer"},"c\u009b2J":{"type":"integer"}}}`)},
		{Name: "pack"},
		{Name: "p\x1b[2J"}, {Name: "p\u009b2J"}, {Name: "p\x9b2J"}, {Name: "pdf\u202eexe"}, {Name: "p q"}, {Name: "p\nmcpwire: trusted"},
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
		"call paint color=r": {"color=red"},
		"call nosuch ":       nil,
		"log w":              {"warning"},
	} {
		if got := sh.candidates(t.Context(), line); !slices.Equal(got, want) {
			t.Errorf("candidates(%q) = %q, want %q", line, got, want)
		}
	}
}

// A resources/updated notification's URI stays on its line in the shell.
func TestShellNotificationKeepsTheURIOnItsLine(t *testing.T) {
	t.Parallel()
	errOut := &syncBuffer{}
	sh := &shell{real: &IOStreams{ErrOut: errOut}}
	opts := &mcp.ClientOptions{}
	sh.clientOptions(opts)
	opts.OnResourceUpdated(t.Context(), mcp.ResourceUpdated{URI: "file:///a\nmcpwire: using server \"prod\""})
	if got := errOut.String(); got != "notification: resources/updated file:///a^Jmcpwire: using server \"prod\"\n" {
		t.Errorf("printed %q", got)
	}
}
