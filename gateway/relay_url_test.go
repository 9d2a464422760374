package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
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

// A 2026-07-28 host answers on a retry, and the gateway calls the
// upstream again each round. An upstream that keeps what it learnt (roots
// fetched once) asks its questions in another order on a later round: the
// answers must still go to the questions they answer. Before, answers
// were matched by position, so the roots the host gave in the second round
// came back to the upstream as the answer to its elicitation in the third.
func TestRetriedQuestionsKeepTheirAnswers(t *testing.T) {
	up := server.NewServer(nil)
	var mu sync.Mutex
	var roots json.RawMessage // the upstream asks for them once
	up.AddTool(server.Tool{Name: "ask"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		mu.Lock()
		known := roots
		mu.Unlock()
		if known == nil {
			r, err := req.Session.ListRoots(ctx)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			roots = r
			mu.Unlock()
		}
		e, err := req.Session.Elicit(ctx, map[string]any{"message": "who?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		if err != nil {
			return nil, err
		}
		return server.TextResult(string(e)), nil
	})
	g := newGateway(t, map[string]*server.Server{"up": up}, &Options{Relay: &Relay{}})
	o := pinned(mcp.ModernProtocolVersion)
	o.Roots = func(context.Context) ([]mcp.Root, error) { return []mcp.Root{{URI: "file:///work"}}, nil }
	o.Elicitation = func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: mcp.ElicitAccept, Content: map[string]any{"name": "ada"}}, nil
	}
	res, err := host(t, g, o).CallTool(t.Context(), "up__ask", nil, nil)
	if err != nil || res.IsError || len(res.Content) == 0 {
		t.Fatalf("call: %v %+v", err, res)
	}
	var got mcp.ElicitResult
	if err := json.Unmarshal([]byte(res.Content[0].Text), &got); err != nil || got.Action != mcp.ElicitAccept || got.Content["name"] != "ada" {
		t.Errorf("the upstream's elicitation was answered %s (%v)", res.Content[0].Text, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(string(roots), "file:///work") {
		t.Errorf("the upstream's roots: %s", roots)
	}
}
