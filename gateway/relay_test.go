package gateway

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

// An upstream's elicitation reaches the host of the call that caused it,
// in the host's era: a request of its own for a 2025-11-25 host, an input
// request of an input_required result for a 2026-07-28 host.
func TestElicitationRelayedInBothEras(t *testing.T) {
	up := server.NewServer(nil)
	up.AddTool(server.Tool{Name: "ask"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		raw, err := req.Session.Elicit(ctx, map[string]any{"message": "who?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		if err != nil {
			return nil, err
		}
		return server.TextResult(string(raw)), nil
	})
	outcomes := make(chan Outcome, 8)
	seen := func(_ context.Context, _ *Call) (context.Context, func(*CallEnd)) {
		return nil, func(e *CallEnd) { outcomes <- e.Outcome }
	}
	g := newGateway(t, map[string]*server.Server{"up": up}, &Options{Relay: &Relay{}, Hooks: []CallHook{seen}})
	// What the hooks (the audit log, the metrics) see of the call: one
	// round up to 2025-11-25; in 2026-07-28 a round that asks, then the
	// retry that carries the answer.
	want := map[string][]Outcome{"2025-11-25": {OutcomeOK}, mcp.ModernProtocolVersion: {OutcomeInputRequired, OutcomeOK}}
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			var asked []string
			o := pinned(era)
			o.Elicitation = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
				asked = append(asked, req.Message)
				return &mcp.ElicitResult{Action: mcp.ElicitAccept, Content: map[string]any{"name": "ada"}}, nil
			}
			c := host(t, g, o)
			res, err := c.CallTool(t.Context(), "up__ask", nil, nil)
			if err != nil || res.IsError || len(res.Content) == 0 {
				t.Fatalf("call: %v %+v", err, res)
			}
			var got mcp.ElicitResult
			if err := json.Unmarshal([]byte(res.Content[0].Text), &got); err != nil || got.Action != mcp.ElicitAccept || got.Content["name"] != "ada" {
				t.Errorf("the upstream got %q (%v)", res.Content[0].Text, err)
			}
			if len(asked) != 1 || asked[0] != "who?" {
				t.Errorf("the host was asked %q", asked)
			}
			var ends []Outcome
			for len(ends) < len(want[era]) {
				ends = append(ends, <-outcomes)
			}
			if !slices.Equal(ends, want[era]) || len(outcomes) != 0 {
				t.Errorf("the hooks saw %v (and %d more), want %v", ends, len(outcomes), want[era])
			}
		})
	}
	// A host that did not declare elicitation gets the upstream a clear error.
	c := host(t, g, pinned("2025-11-25"))
	res, err := c.CallTool(t.Context(), "up__ask", nil, nil)
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text, "elicitation") {
		t.Fatalf("call from a host without elicitation: %v %+v", err, res)
	}
}

// resources/updated
// reaches the subscribed host under the URI it knows;
// logging/setLevel is answered.
func TestNotificationsRelayed(t *testing.T) {
	a, b := server.NewServer(nil), server.NewServer(nil)
	a.AddResource(server.Resource{URI: "mem://shared", Name: "shared", Text: "1"})
	b.AddResource(server.Resource{URI: "mem://shared", Name: "shared", Text: "1"})
	g := newGateway(t, map[string]*server.Server{"a": a, "b": b}, nil)
	updated := make(chan string, 8)
	c := host(t, g, &mcp.ClientOptions{
		ProtocolVersion:   "2025-11-25",
		OnResourceUpdated: func(_ context.Context, u mcp.ResourceUpdated) { updated <- u.URI },
	})
	ctx := t.Context()
	if err := c.SubscribeResource(ctx, "mcpwire://b/mem://shared"); err != nil {
		t.Fatal(err)
	}
	b.AddResource(server.Resource{URI: "mem://shared", Name: "shared", Text: "2"}) // an update
	if got := <-updated; got != "mcpwire://b/mem://shared" {
		t.Errorf("updated: %q", got)
	}
	if err := c.SetLogLevel(ctx, mcp.LevelInfo); err != nil {
		t.Fatal(err)
	}

}
