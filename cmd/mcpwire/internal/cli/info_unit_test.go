package cli

import (
	"encoding/json"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

func TestCapabilities(t *testing.T) {
	if got := capabilities(mcp.ServerCapabilities{}); got != "(none)" {
		t.Errorf("empty: %q", got)
	}
	caps := mcp.ServerCapabilities{
		Tools:        &mcp.ToolsCapability{},
		Resources:    &mcp.ResourcesCapability{Subscribe: true},
		Logging:      &mcp.EmptyObject{},
		Experimental: map[string]json.RawMessage{"x\x1b": json.RawMessage("{}")},
	}
	if got, want := capabilities(caps), "tools, resources (subscribe), logging, experimental:x^["; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
