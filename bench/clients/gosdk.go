package clients

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	"github.com/mcpwire/mcpwire/bench/canned"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// GoSDK is the official Go SDK: mcp.NewClient and Client.Connect over
// CommandTransport or StreamableClientTransport, default options.
func GoSDK() *Client {
	return &Client{
		Name:   "go-sdk",
		HTTP:   true,
		Modern: true,
		Usage: "`mcp.NewClient(impl, nil).Connect(ctx, &mcp.CommandTransport{Command: exec.Command(bin)}, nil)` or " +
			"`&mcp.StreamableClientTransport{Endpoint: url}`, default options; `CallTool(ctx, &mcp.CallToolParams{...})`, `ListTools(ctx, nil)`. " +
			"Its default handshake first tries `server/discover` (protocol 2026-07-28), which the canned server of the legacy era refuses with -32601, then falls back to `initialize`; " +
			"against the canned server of the 2026-07-28 era that probe is the handshake, and the session stays in that era (its modern mode is its default).",
		Connect: func(ctx context.Context, t Target) (Session, error) {
			return gosdkConnect(ctx, t, nil)
		},
		ConnectNoted: func(ctx context.Context, t Target, onNote func(method string)) (NotedSession, error) {
			// Its handlers for the two notifications the workloads send.
			return gosdkConnect(ctx, t, &sdk.ClientOptions{
				LoggingMessageHandler:  func(context.Context, *sdk.LoggingMessageRequest) { onNote(canned.LogMethod) },
				ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { onNote(canned.ToolsChangedMethod) },
			})
		},
	}
}

func gosdkConnect(ctx context.Context, t Target, opts *sdk.ClientOptions) (*gosdkSession, error) {
	c := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1.0.0"}, opts)
	var tr sdk.Transport
	if t.IsHTTP() {
		tr = &sdk.StreamableClientTransport{Endpoint: t.URL}
	} else {
		tr = &sdk.CommandTransport{Command: exec.Command(t.Command, t.Args...)}
	}
	cs, err := c.Connect(ctx, tr, nil)
	if err != nil {
		return nil, err
	}
	if got := cs.InitializeResult().ProtocolVersion; t.Modern && got != canned.ModernVersion {
		cs.Close()
		return nil, fmt.Errorf("go-sdk settled on protocol %q, want %s", got, canned.ModernVersion)
	}
	return &gosdkSession{cs: cs}, nil
}

type gosdkSession struct{ cs *sdk.ClientSession }

func (s *gosdkSession) Echo(ctx context.Context) error {
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: canned.EchoTool, Arguments: EchoArgs})
	if err != nil {
		return err
	}
	text, err := sdkText(res)
	if err != nil {
		return err
	}
	return checkEcho(text)
}

func sdkText(res *sdk.CallToolResult) (string, error) {
	if len(res.Content) != 1 {
		return "", errors.New("want one content block")
	}
	tc, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		return "", fmt.Errorf("content is %T, not text", res.Content[0])
	}
	return tc.Text, nil
}

func (s *gosdkSession) Big(ctx context.Context, size int) (int, error) {
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: canned.BigTool, Arguments: map[string]any{"size": size}})
	if err != nil {
		return 0, err
	}
	text, err := sdkText(res)
	return len(text), err
}

func (s *gosdkSession) List(ctx context.Context) (int, error) {
	res, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		return 0, err
	}
	if res.NextCursor != "" {
		return 0, errors.New("unexpected nextCursor")
	}
	return len(res.Tools), nil
}

func (s *gosdkSession) Close() error { return s.cs.Close() }

func (s *gosdkSession) CallText(ctx context.Context, name string, args map[string]any) (string, error) {
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", err
	}
	return sdkText(res)
}

func (s *gosdkSession) Dropped() int { return 0 }
