package gateway

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

// Sampling and roots asked by an upstream reach the host of the call that
// caused them, in the host's era, and the host's answer is what the
// upstream gets; a host that did not declare the capability gets the
// upstream an error that says so.
func TestSamplingAndRootsRelayedInBothEras(t *testing.T) {
	up := server.NewServer(nil)
	up.AddTool(server.Tool{Name: "sample"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		raw, err := req.Session.CreateMessage(ctx, map[string]any{"maxTokens": 10,
			"messages": []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": "say hi"}}}})
		if err != nil {
			return server.ErrorResult("sampling: " + err.Error()), nil
		}
		return server.TextResult(string(raw)), nil
	})
	up.AddTool(server.Tool{Name: "roots"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		raw, err := req.Session.ListRoots(ctx)
		if err != nil {
			return server.ErrorResult("roots: " + err.Error()), nil
		}
		return server.TextResult(string(raw)), nil
	})
	g := newGateway(t, map[string]*server.Server{"up": up}, &Options{Relay: &Relay{}})
	for _, era := range eras {
		t.Run(era, func(t *testing.T) {
			sampled := make(chan string, 2)
			o := pinned(era)
			o.Sampling = func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
				if len(req.Messages) == 1 && len(req.Messages[0].Content) == 1 {
					sampled <- req.Messages[0].Content[0].Text
				}
				return &mcp.CreateMessageResult{Role: "assistant", Model: "host-model",
					Content: mcp.SamplingContent{mcp.TextContent("hi from the host")}}, nil
			}
			o.InitialRoots = []mcp.Root{{URI: "file:///host/project", Name: "project"}}
			c := host(t, g, o)

			res, err := c.CallTool(t.Context(), "up__sample", nil, nil)
			if err != nil || res.IsError || len(res.Content) == 0 {
				t.Fatalf("up__sample: %v %+v", err, res)
			}
			var got mcp.CreateMessageResult
			if err := json.Unmarshal([]byte(res.Content[0].Text), &got); err != nil || got.Model != "host-model" ||
				len(got.Content) != 1 || got.Content[0].Text != "hi from the host" {
				t.Errorf("the upstream got %q (%v)", res.Content[0].Text, err)
			}
			select {
			case text := <-sampled:
				if text != "say hi" {
					t.Errorf("the host was asked to sample %q", text)
				}
			default:
				t.Error("the host's sampling handler was never called")
			}

			res, err = c.CallTool(t.Context(), "up__roots", nil, nil)
			if err != nil || res.IsError || !strings.Contains(res.Content[0].Text, "file:///host/project") {
				t.Fatalf("up__roots: %v %+v", err, res)
			}
		})
	}
	for _, era := range eras {
		t.Run(era+"/undeclared", func(t *testing.T) {
			c := host(t, g, pinned(era))
			for tool, capability := range map[string]string{"up__sample": "sampling", "up__roots": "roots"} {
				res, err := c.CallTool(t.Context(), tool, nil, nil)
				if err != nil {
					t.Fatalf("%s: the host's call failed: %v", tool, err)
				}
				if text := res.Content[0].Text; !res.IsError || !strings.Contains(text, "the host did not declare the "+capability+" capability") {
					t.Errorf("%s from a host without %s: %+v", tool, capability, res)
				}
			}
		})
	}
}

// An upstream's notifications/message reaches the host under a logger
// that names the server, once the host set a level that lets it through.
func TestLogRelayedNamingTheServer(t *testing.T) {
	up := server.NewServer(nil)
	up.AddTool(server.Tool{Name: "log"}, func(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		if _, err := req.Session.Log(ctx, "warning", "disk low"); err != nil {
			return nil, err
		}
		return server.TextResult("logged"), nil
	})
	g := newGateway(t, map[string]*server.Server{"up": up}, nil)
	logs := make(chan mcp.LoggingMessage, 4)
	c := host(t, g, &mcp.ClientOptions{ProtocolVersion: "2025-11-25",
		OnLogMessage: func(_ context.Context, m mcp.LoggingMessage) { logs <- m }})
	if err := c.SetLogLevel(t.Context(), mcp.LevelInfo); err != nil {
		t.Fatal(err)
	}
	if res, err := c.CallTool(t.Context(), "up__log", nil, nil); err != nil || res.IsError {
		t.Fatalf("up__log: %v %+v", err, res)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	select {
	case m := <-logs:
		// The server core names its own logger "mcptest": SERVER/LOGGER.
		if m.Logger != "up/mcptest" || m.Level != "warning" || string(m.Data) != `"disk low"` {
			t.Errorf("the host got %+v (data %s)", m, m.Data)
		}
	case <-ctx.Done():
		t.Fatal("the upstream's log message never reached the host")
	}
}
