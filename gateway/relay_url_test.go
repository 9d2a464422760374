package gateway

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

// An upstream's URL-mode elicitation goes only to a host that declared
// elicitation.url. A 2026-07-28 host declares its capabilities in each
// request's _meta, and the check read only a handshake's: a host that
// declared form mode alone was sent the URL-mode input request.
func TestURLElicitationNeedsTheHostsURLModeInBothEras(t *testing.T) {
	up := server.NewServer(nil)
	up.AddTool(server.Tool{Name: "signin"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		_, err := req.Session.Elicit(ctx, map[string]any{"mode": "url", "message": "sign in", "url": "https://example.com/login", "elicitationId": "e1"})
		if err != nil {
			return server.ErrorResult(err.Error()), nil
		}
		return server.TextResult("answered"), nil
	})
	g := newGateway(t, map[string]*server.Server{"up": up}, &Options{Relay: &Relay{}})
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			o := pinned(era)
			asked := 0
			o.Elicitation = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) { // form mode only
				asked++
				return &mcp.ElicitResult{Action: mcp.ElicitDecline}, nil
			}
			c := host(t, g, o)
			res, err := c.CallTool(t.Context(), "up__signin", nil, nil)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if asked != 0 {
				t.Errorf("the host was asked a URL-mode elicitation %d times without declaring elicitation.url", asked)
			}
			if !res.IsError || len(res.Content) == 0 || !strings.Contains(res.Content[0].Text, "elicitation.url") {
				t.Errorf("the upstream's answer: %+v, want an error naming elicitation.url", res)
			}
		})
	}
}
