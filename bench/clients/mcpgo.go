package clients

import (
	"context"
	"errors"
	"fmt"

	mgclient "github.com/mark3labs/mcp-go/client"
	mg "github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpwire/mcpwire/bench/canned"
)

// MCPGo is mark3labs/mcp-go: client.NewStdioMCPClient or
// client.NewStreamableHttpClient plus Start, then Initialize, as its
// simple_client example does.
func MCPGo() *Client {
	return &Client{
		Name:   "mcp-go",
		HTTP:   true,
		Modern: true,
		Usage: "`client.NewStdioMCPClient(bin, nil)` or `client.NewStreamableHttpClient(url)` + `Start(ctx)`, then " +
			"`Initialize(ctx, req)` with `ProtocolVersion: mcp.LATEST_PROTOCOL_VERSION` as in its simple_client example; " +
			"`CallTool(ctx, mcp.CallToolRequest{...})`, `ListTools(ctx, mcp.ListToolsRequest{})`. " +
			"Initialize first probes `server/discover`, which the canned server of the legacy era refuses with -32601, then falls back to `initialize`; " +
			"against the canned server of the 2026-07-28 era the probe is the handshake and the client stays in that era (its modern mode is its default).",
		Connect: func(ctx context.Context, t Target) (Session, error) {
			return mcpgoConnect(ctx, t, nil)
		},
		ConnectNoted: func(ctx context.Context, t Target, onNote func(method string)) (NotedSession, error) {
			return mcpgoConnect(ctx, t, func(n mg.JSONRPCNotification) { onNote(n.Method) })
		},
	}
}

// mcpgoConnect connects; onNote, when set, is registered with
// OnNotification before the handshake.
func mcpgoConnect(ctx context.Context, t Target, onNote func(mg.JSONRPCNotification)) (*mcpgoSession, error) {
	var c *mgclient.Client
	var err error
	if t.IsHTTP() {
		if c, err = mgclient.NewStreamableHttpClient(t.URL); err != nil {
			return nil, err
		}
		if err := c.Start(ctx); err != nil {
			c.Close()
			return nil, err
		}
	} else if c, err = mgclient.NewStdioMCPClient(t.Command, nil, t.Args...); err != nil {
		return nil, err
	}
	if onNote != nil {
		c.OnNotification(onNote)
		if !t.IsHTTP() {
			// Client.Start wires the handlers to the transport (which
			// NewStdioMCPClient already started).
			if err := c.Start(ctx); err != nil {
				c.Close()
				return nil, err
			}
		}
	}
	var req mg.InitializeRequest
	req.Params.ProtocolVersion = mg.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mg.Implementation{Name: "bench", Version: "1.0.0"}
	if _, err := c.Initialize(ctx, req); err != nil {
		c.Close()
		return nil, err
	}
	if got := c.ProtocolVersion(); t.Modern && got != canned.ModernVersion {
		c.Close()
		return nil, fmt.Errorf("mcp-go settled on protocol %q, want %s", got, canned.ModernVersion)
	}
	return &mcpgoSession{c: c}, nil
}

type mcpgoSession struct{ c *mgclient.Client }

func mgText(res *mg.CallToolResult) (string, error) {
	if len(res.Content) != 1 {
		return "", errors.New("want one content block")
	}
	tc, ok := mg.AsTextContent(res.Content[0])
	if !ok {
		return "", fmt.Errorf("content is %T, not text", res.Content[0])
	}
	return tc.Text, nil
}

func (s *mcpgoSession) Echo(ctx context.Context) error {
	var req mg.CallToolRequest
	req.Params.Name = canned.EchoTool
	req.Params.Arguments = EchoArgs
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	text, err := mgText(res)
	if err != nil {
		return err
	}
	return checkEcho(text)
}

func (s *mcpgoSession) Big(ctx context.Context, size int) (int, error) {
	var req mg.CallToolRequest
	req.Params.Name = canned.BigTool
	req.Params.Arguments = map[string]any{"size": size}
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		return 0, err
	}
	text, err := mgText(res)
	return len(text), err
}

func (s *mcpgoSession) List(ctx context.Context) (int, error) {
	res, err := s.c.ListTools(ctx, mg.ListToolsRequest{})
	if err != nil {
		return 0, err
	}
	return len(res.Tools), nil
}

func (s *mcpgoSession) Close() error { return s.c.Close() }

func (s *mcpgoSession) CallText(ctx context.Context, name string, args map[string]any) (string, error) {
	var req mg.CallToolRequest
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		return "", err
	}
	return mgText(res)
}

func (s *mcpgoSession) Dropped() int { return 0 }
