package info

import (
	"encoding/json"
	"testing"

	"go.uber.org/goleak"

	"github.com/mcpwire/mcpwire/mcp"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestCapabilities(t *testing.T) {
	if got := Capabilities(mcp.ServerCapabilities{}); got != "(none)" {
		t.Errorf("empty: %q", got)
	}
	caps := mcp.ServerCapabilities{
		Tools:        &mcp.ToolsCapability{},
		Resources:    &mcp.ResourcesCapability{Subscribe: true},
		Logging:      &mcp.EmptyObject{},
		Experimental: map[string]json.RawMessage{"x\x1b": json.RawMessage("{}")},
	}
	if got, want := Capabilities(caps), "tools, resources (subscribe), logging, experimental:x^["; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
