package mcp

import (
	"context"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// What a session makes only when it is used: one that called a tool but
// never listed, subscribed nor set a level holds none of it, and options
// that declare no capability share noCaps. Once used, the state is there
// and works as before.
func TestIdleSessionHoldsNoLazyState(t *testing.T) {
	for _, era := range []struct {
		name string
		opts *ClientOptions
	}{{"legacy", &ClientOptions{}}, {"modern", modernPin}} {
		t.Run(era.name, func(t *testing.T) {
			c, _ := connectMCPTest(t, mcptest.NewDefault(nil), era.opts)
			if _, err := c.CallTool(t.Context(), "echo", map[string]any{"message": "x"}, nil); err != nil {
				t.Fatal(err)
			}
			if c.tools.Load() != nil || c.state.Load() != nil || c.caps != &noCaps {
				t.Errorf("an idle session holds tools %p, state %p, caps %p (noCaps %p)", c.tools.Load(), c.state.Load(), c.caps, &noCaps)
			}
			if _, err := c.ListTools(t.Context()); err != nil {
				t.Fatal(err)
			}
			if c.tools.Load() == nil {
				t.Error("a listing taught nothing")
			}
			if err := c.SetLogLevel(t.Context(), LevelWarning); err != nil {
				t.Fatal(err)
			}
			if st := c.SessionState(); st.LogLevel != LevelWarning {
				t.Errorf("SessionState %+v after SetLogLevel(%s)", st, LevelWarning)
			}
		})
	}
	c, _ := connectMCPTest(t, mcptest.NewDefault(nil), &ClientOptions{Roots: func(context.Context) ([]Root, error) { return nil, nil }})
	if c.caps == &noCaps || c.ClientCapabilities().Roots == nil {
		t.Errorf("a client with a Roots handler declares %+v", c.ClientCapabilities())
	}
}
