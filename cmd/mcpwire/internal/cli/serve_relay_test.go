package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
)

// TestServeRelaysElicitation runs "mcpwire serve --stdio" over the
// example server, whose elicit tool asks its client for a form: the
// question reaches the host that called the tool, in the host's era (a
// request of its own up to 2025-11-25, an input request of an
// input_required result for 2026-07-28), and the host's answer goes back
// to the upstream.
func TestServeRelaysElicitation(t *testing.T) {
	for _, version := range []string{"2025-11-25", mcp.ModernProtocolVersion} {
		t.Run(version, func(t *testing.T) {
			asked := make(chan string, 4)
			c := gatewayClient(t, &mcp.ClientOptions{ProtocolVersion: version,
				Elicitation: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked <- req.Message
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "answered by the host"}}, nil
				}}, "--config", gatewayConfig(t))
			res, err := c.CallTool(t.Context(), "alpha__elicit", map[string]any{"message": "who are you?"}, nil)
			if err != nil || res.IsError {
				t.Fatalf("alpha__elicit: %v %+v", err, res)
			}
			select {
			case msg := <-asked:
				if msg != "who are you?" {
					t.Fatalf("the host was asked %q", msg)
				}
			default:
				t.Fatal("the host was never asked")
			}
			if got := textOf(res); !strings.Contains(got, "answered by the host") || !strings.Contains(got, "accept") {
				t.Fatalf("the upstream got %q", got)
			}
		})
	}
}

// An upstream's question the host cannot answer (a host without roots) is
// refused to the upstream, which decides what to do; the host's call is
// not failed for it, in either era.
func TestServeRefusesUndeclaredQuestionToTheUpstream(t *testing.T) {
	for _, version := range []string{"2025-11-25", mcp.ModernProtocolVersion} {
		t.Run(version, func(t *testing.T) {
			// alpha is pinned to 2026-07-28: negotiated, a probe that a
			// loaded machine keeps unanswered for probeBound lets
			// initialize settle the era first, and the refusal then
			// reaches the upstream as a JSON-RPC error instead.
			cfg := gatewayConfigAlpha(t, map[string]any{"protocolVersion": mcp.ModernProtocolVersion})
			c := gatewayClient(t, &mcp.ClientOptions{ProtocolVersion: version}, "--config", cfg)
			res, err := c.CallTool(t.Context(), "alpha__roots", nil, nil)
			if err != nil {
				t.Fatalf("the host's call failed: %v", err)
			}
			// The gateway reaches the example server in 2026-07-28, where a
			// refused input request ends the upstream's call: the host
			// gets an isError result naming the server and the question.
			// The refusal says why: the host did not declare roots (not
			// that the gateway has no handler, which it has).
			if !res.IsError || !strings.Contains(textOf(res), `"alpha"`) || !strings.Contains(textOf(res), "roots/list") ||
				!strings.Contains(textOf(res), "the host did not declare the roots capability") || strings.Contains(textOf(res), "no handler") {
				t.Fatalf("the upstream's tool result: %+v", res)
			}
		})
	}
}
