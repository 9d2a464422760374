package clients

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/bench/canned"
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// MCPWire is this repository's client: mcp.Connect over transport.Command
// or transport.StreamableHTTP with default options.
func MCPWire() *Client {
	return &Client{
		Name:   "mcpwire",
		HTTP:   true,
		Modern: true,
		Usage: "`mcp.Connect(ctx, &transport.Command{Command: bin}, nil)` or " +
			"`&transport.StreamableHTTP{URL: url}`, default options; `CallTool(ctx, name, args, nil)`, `ListTools(ctx)`. " +
			"The connect workload goes through package `manager` instead: `manager.NewServers(servers, &manager.Options{DisableCache: true, StartupGate: -1})`, " +
			"`Start`, then `WaitSettled` (every server connected and its tools listed). " +
			"The flood and storm workloads use the manager too (`Subscribe`, `Connect`, `CallServerTool`), with default options. " +
			"The survive workload sets `MaxBodySize: -1, MaxEventSize: -1` over HTTP: mcpwire's default limit on one reply is 32 MiB, " +
			"against hostile servers (docs/security.md), and a user who expects larger results raises it the same way. " +
			"Against a server of the 2026-07-28 era it is pinned to it, `&mcp.ClientOptions{ProtocolVersion: mcp.ModernProtocolVersion}`: the handshake is `server/discover`.",
		ConnectMany: connectManaged,
		ConnectLarge: func(ctx context.Context, t Target) (Session, error) {
			var tr transport.Transport = &transport.Command{Command: t.Command, Args: t.Args}
			if t.IsHTTP() {
				// No limit on a reply body or an SSE event (default: 32 MiB).
				tr = &transport.StreamableHTTP{URL: t.URL, MaxBodySize: -1, MaxEventSize: -1}
			}
			c, err := mcp.Connect(ctx, tr, nil)
			if err != nil {
				return nil, err
			}
			return &mcpwireSession{c: c}, nil
		},
		ConnectNoted: connectNotedManaged,
		Connect: func(ctx context.Context, t Target) (Session, error) {
			var tr transport.Transport
			switch {
			case t.LegacySSE:
				tr = &transport.SSE{URL: t.URL}
			case t.IsHTTP():
				tr = &transport.StreamableHTTP{URL: t.URL}
			default:
				tr = &transport.Command{Command: t.Command, Args: t.Args}
			}
			c, err := mcp.Connect(ctx, tr, mcpwireOptions(t))
			if err != nil {
				return nil, err
			}
			return &mcpwireSession{c: c, prefix: t.ToolPrefix}, nil
		},
	}
}

// mcpwireOptions are the default options (nil), but for a server of the
// stateless era, which mcpwire is pinned to: what a user does to reach one
// until automatic negotiation is the default.
func mcpwireOptions(t Target) *mcp.ClientOptions {
	switch {
	case t.Modern:
		return &mcp.ClientOptions{ProtocolVersion: mcp.ModernProtocolVersion}
	case t.PinLegacy:
		return &mcp.ClientOptions{ProtocolVersion: mcp.LatestLegacyProtocolVersion}
	}
	return nil
}

type mcpwireSession struct {
	c      *mcp.Client
	prefix string // Target.ToolPrefix
}

func (s *mcpwireSession) Echo(ctx context.Context) error {
	res, err := s.c.CallTool(ctx, s.prefix+canned.EchoTool, EchoArgs, nil)
	if err != nil {
		return err
	}
	if len(res.Content) != 1 {
		return errors.New("echo: want one content block")
	}
	return checkEcho(res.Content[0].Text)
}

func (s *mcpwireSession) Big(ctx context.Context, size int) (int, error) {
	res, err := s.c.CallTool(ctx, s.prefix+canned.BigTool, map[string]any{"size": size}, nil)
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

// connectManaged starts n servers through the manager, as a host with n
// configured servers does, and returns once all are connected and listed.
func connectManaged(ctx context.Context, t Target, n int) (io.Closer, error) {
	servers := make([]*config.Server, n)
	for i := range servers {
		s := &config.Server{Name: fmt.Sprintf("s%d", i), Enabled: true}
		if t.IsHTTP() {
			s.Type, s.URL = config.TypeHTTP, t.URL
		} else {
			s.Type, s.Command, s.Args = config.TypeStdio, t.Command, t.Args
		}
		servers[i] = s
	}
	m := manager.NewServers(servers, &manager.Options{DisableCache: true, StartupGate: -1})
	if _, err := m.Start(ctx); err != nil {
		m.Close()
		return nil, err
	}
	snap, err := m.WaitSettled(ctx)
	if err != nil {
		m.Close()
		return nil, err
	}
	for _, st := range snap.Servers {
		if st.State != manager.StateConnected {
			m.Close()
			return nil, fmt.Errorf("server %s: %s %v", st.Name, st.State, st.Err)
		}
	}
	if got := len(m.Tools()); got != n*canned.ToolCount {
		m.Close()
		return nil, fmt.Errorf("the manager lists %d tools, want %d", got, n*canned.ToolCount)
	}
	return m, nil
}

// MCPWireDirect is mcpwire connecting each server with mcp.Connect on a
// goroutine of its own, without the manager: the library's own cost, shown
// beside the manager's in the connect workload.
func MCPWireDirect() *Client {
	c := MCPWire()
	c.Name = "mcpwire (mcp.Connect)"
	c.VariantOf = "mcpwire"
	c.ConnectMany = nil
	c.Usage = "the connect workload only: `mcp.Connect` per server, each on its own goroutine, as the other clients are used."
	return c
}

// connectNotedManaged connects one server through the manager, as a host
// does, with onNote subscribed to its events.
func connectNotedManaged(ctx context.Context, t Target, onNote func(method string)) (NotedSession, error) {
	if t.IsHTTP() {
		return nil, errors.New("the flood and storm workloads run over stdio only")
	}
	def := &config.Server{Name: "s", Enabled: true, Type: config.TypeStdio, Command: t.Command, Args: t.Args}
	m := manager.NewServers([]*config.Server{def}, &manager.Options{DisableCache: true, StartupGate: -1})
	s := &managedSession{m: m}
	m.Subscribe(func(e manager.Event) {
		switch e.Kind {
		case manager.Notification:
			onNote(e.Notification.Method)
		case manager.Dropped:
			s.dropped.Add(int64(e.Dropped))
		}
	})
	if err := m.Connect(ctx, def.Name); err != nil {
		m.Close()
		return nil, err
	}
	return s, nil
}

type managedSession struct {
	m       *manager.Manager
	dropped atomic.Int64
}

func (s *managedSession) CallText(ctx context.Context, name string, args map[string]any) (string, error) {
	res, err := s.m.CallServerTool(ctx, "s", name, args, nil)
	if err != nil {
		return "", err
	}
	if len(res.Content) != 1 {
		return "", errors.New("want one content block")
	}
	return res.Content[0].Text, nil
}

func (s *managedSession) Dropped() int { return int(s.dropped.Load()) }

func (s *managedSession) Close() error { return s.m.Close() }
