package gateway

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

// A 2026-07-28 upstream asks within the call it answers (an input
// request of that call's result), so its question goes to the host that
// made that call, even when another host's call to the same upstream
// started later and is still running: routing it by "the latest call"
// showed one host's question to another and gave the first host's call
// the other's answer.
func TestModernUpstreamAsksTheHostOfItsOwnCall(t *testing.T) {
	up := server.NewServer(&server.Options{Eras: server.ModernOnly})
	// Each subtest's gate: its ask tool says it started (once: a
	// 2026-07-28 host's retry runs it again) and waits for release.
	type gate struct {
		started, release chan struct{}
		once             sync.Once
	}
	var current atomic.Pointer[gate]
	up.AddTool(server.Tool{Name: "ask"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		gt := current.Load()
		gt.once.Do(func() { close(gt.started) })
		<-gt.release
		raw, err := req.Session.Elicit(ctx, map[string]any{"message": "who?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}})
		if err != nil {
			return nil, err
		}
		return server.TextResult(string(raw)), nil
	})
	holdStarted := make(chan struct{}, 1)
	up.AddTool(server.Tool{Name: "hold"}, func(ctx context.Context, _ *server.ToolRequest) (*server.ToolResult, error) {
		holdStarted <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
	g := newGateway(t, map[string]*server.Server{"up": up}, &Options{Relay: &Relay{}})

	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			answering := func(name string, asked chan<- string) *mcp.ClientOptions {
				o := pinned(era)
				o.Elicitation = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked <- name
					return &mcp.ElicitResult{Action: mcp.ElicitAccept, Content: map[string]any{"name": name}}, nil
				}
				return o
			}
			asked := make(chan string, 4)
			a := host(t, g, answering("a", asked))
			b := host(t, g, answering("b", asked))

			type result struct {
				res *mcp.CallToolResult
				err error
			}
			gt := &gate{started: make(chan struct{}), release: make(chan struct{})}
			current.Store(gt)
			aDone := make(chan result, 1)
			go func() {
				res, err := a.CallTool(t.Context(), "up__ask", nil, nil)
				aDone <- result{res, err}
			}()
			<-gt.started
			// B's call to the same upstream starts after A's and runs on.
			hctx, stopHold := context.WithCancel(t.Context())
			bDone := make(chan struct{})
			go func() {
				defer close(bDone)
				_, _ = b.CallTool(hctx, "up__hold", nil, nil)
			}()
			<-holdStarted
			close(gt.release)

			r := <-aDone
			stopHold()
			<-bDone
			if r.err != nil || r.res.IsError || len(r.res.Content) == 0 {
				t.Fatalf("A's call: %v %+v", r.err, r.res)
			}
			if got := r.res.Content[0].Text; !strings.Contains(got, `"name":"a"`) {
				t.Errorf("A's call got the answer %s, not A's", got)
			}
			close(asked)
			for who := range asked {
				if who != "a" {
					t.Errorf("host %s was asked A's upstream's question", who)
				}
			}
		})
	}
}
