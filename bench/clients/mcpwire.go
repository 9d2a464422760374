package clients

import (
	"context"
	"errors"

	"github.com/mcpwire/mcpwire/bench/canned"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// MCPWire is this repository's client: mcp.Connect over transport.Command
// or transport.StreamableHTTP with default options.
func MCPWire() *Client {
	return &Client{
		Name: "mcpwire",
		HTTP: true,
		Usage: "`mcp.Connect(ctx, &transport.Command{Command: bin}, nil)` or " +
			"`&transport.StreamableHTTP{URL: url}`, default options; `CallTool(ctx, name, args, nil)`, `ListTools(ctx)`.",
		Connect: func(ctx context.Context, t Target) (Session, error) {
			var tr transport.Transport
			if t.IsHTTP() {
				tr = &transport.StreamableHTTP{URL: t.URL}
			} else {
				tr = &transport.Command{Command: t.Command, Args: t.Args}
			}
			c, err := mcp.Connect(ctx, tr, nil)
			if err != nil {
				return nil, err
			}
			return &mcpwireSession{c: c}, nil
		},
	}
}

type mcpwireSession struct{ c *mcp.Client }

func (s *mcpwireSession) Echo(ctx context.Context) error {
	res, err := s.c.CallTool(ctx, canned.EchoTool, EchoArgs, nil)
	if err != nil {
		return err
	}
	if len(res.Content) != 1 {
		return errors.New("echo: want one content block")
	}
	return checkEcho(res.Content[0].Text)
}

func (s *mcpwireSession) Big(ctx context.Context, size int) (int, error) {
	res, err := s.c.CallTool(ctx, canned.BigTool, map[string]any{"size": size}, nil)
	if err != nil {
		return 0, err
	}
	if len(res.Content) != 1 {
		return 0, errors.New("big: want one content block")
	}
	return len(res.Content[0].Text), nil
}

func (s *mcpwireSession) List(ctx context.Context) (int, error) {
	tools, err := s.c.ListTools(ctx)
	return len(tools), err
}

func (s *mcpwireSession) Close() error { return s.c.Close() }
