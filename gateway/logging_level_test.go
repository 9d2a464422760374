package gateway

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

// A host's logging/setLevel reaches every upstream, in the upstream's era:
// logging/setLevel for an older-era upstream, the level in each request's
// _meta (io.modelcontextprotocol/logLevel) for a 2026-07-28 one. Each
// upstream then sends only what the level lets through, and the host gets
// it under the server's name.
func TestSetLevelReachesUpstreamsOfBothEras(t *testing.T) {
	ups := map[string]*server.Server{
		"legacy": server.NewServer(&server.Options{Eras: server.LegacyOnly}),
		"modern": server.NewServer(&server.Options{Eras: server.ModernOnly}),
	}
	for _, up := range ups {
		up.AddTool(server.Tool{Name: "log"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
			var sent []bool
			for _, level := range []string{"warning", "error"} {
				ok, err := req.Session.Log(ctx, level, level+" message")
				if err != nil {
					return nil, err
				}
				sent = append(sent, ok)
			}
			return server.TextResult(fmt.Sprintf("warning=%v error=%v", sent[0], sent[1])), nil
		})
	}
	g := newGateway(t, ups, nil)
	logs := make(chan mcp.LoggingMessage, 8)
	c := host(t, g, &mcp.ClientOptions{ProtocolVersion: "2025-11-25",
		OnLogMessage: func(_ context.Context, m mcp.LoggingMessage) { logs <- m }})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := c.SetLogLevel(ctx, mcp.LevelError); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"legacy", "modern"} {
		res, err := c.CallTool(ctx, name+"__log", nil, nil)
		if err != nil || res.IsError || res.Content[0].Text != "warning=false error=true" {
			t.Fatalf("%s__log (what the upstream sent at level error): %v %+v", name, err, res)
		}
		select {
		case m := <-logs:
			if m.Level != mcp.LevelError || m.Logger != name+"/mcptest" {
				t.Errorf("%s: the host got %+v", name, m)
			}
		case <-ctx.Done():
			t.Fatalf("%s: its error message never reached the host", name)
		}
	}
}
