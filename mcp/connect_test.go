package mcp

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// pipeTransport hands out a prepared stream, or fails.
type pipeTransport struct {
	stream jsonrpc.Stream
	err    error
}

func (p *pipeTransport) Connect(context.Context) (jsonrpc.Stream, error) { return p.stream, p.err }

func TestConnect(t *testing.T) {
	s := newFakeServer(t)
	c, err := Connect(t.Context(), &pipeTransport{stream: s.start()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.ServerInfo().Name != "fake" || c.ProtocolVersion() != LatestLegacyProtocolVersion {
		t.Errorf("session: %+v %s", c.ServerInfo(), c.ProtocolVersion())
	}
	if c.InitializeResult().ServerInfo.Version != "1.2.3" {
		t.Errorf("InitializeResult = %+v", c.InitializeResult())
	}
}

func TestConnectFailures(t *testing.T) {
	boom := errors.New("spawn failed")
	_, err := Connect(t.Context(), &pipeTransport{err: boom}, nil)
	if !errors.Is(err, boom) || err.Error() != "mcp: connecting: spawn failed" {
		t.Errorf("Connect with a failing transport = %v", err)
	}
	if _, err := Connect(t.Context(), nil, nil); err == nil {
		t.Error("Connect(nil transport) succeeded")
	}
	if _, err := NewClient(t.Context(), nil, nil); err == nil {
		t.Error("NewClient(nil stream) succeeded")
	}
}
