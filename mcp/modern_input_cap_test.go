package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A modern tool call that asks for input is one call of several rounds:
// ToolMaxTimeout caps it from its start, not each round afresh, as it
// caps a legacy call during which the server asks its questions.
func TestModernInputRoundsShareTheCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := mcptest.NewServer(&mcptest.Options{Eras: mcptest.ModernOnly})
		srv.AddTool(mcptest.Tool{Name: "ponder"}, func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
			// 8 s of work, a question, and (on the retry, which runs the
			// handler again) 8 s more: 16 s in all.
			time.Sleep(8 * time.Second)
			if _, err := req.Session.ListRoots(ctx); err != nil {
				return nil, err
			}
			return mcptest.TextResult("done"), nil
		})
		c, _ := connectMCPTest(t, srv, modernWith(func(o *ClientOptions) {
			o.InitialRoots = []Root{{URI: "file:///w"}}
			o.ToolTimeout, o.ToolMaxTimeout = 10*time.Second, 12*time.Second
		}))
		start := time.Now()
		_, err := c.CallTool(t.Context(), "ponder", nil, nil)
		if d := time.Since(start); !errors.Is(err, jsonrpc.ErrTimeout) || d != 12*time.Second {
			t.Errorf("two rounds of 8 s under a 12 s cap: %v after %v, want a timeout after 12s", err, d)
		}
		if err != nil && !strings.Contains(err.Error(), "timed out after 12s") {
			t.Errorf("the error does not count from the call's start: %v", err)
		}
		c.Close()
		synctest.Wait()
	})
}
