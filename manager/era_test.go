package manager

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// probeCounter passes a transport through and counts the era probes
// (server/discover) written to its streams; it keeps the transport's
// server identity, by which the client remembers the era.
type probeCounter struct {
	transport.Transport
	probes *atomic.Int32
}

func (p *probeCounter) ServerIdentity() (kind, key string) {
	return p.Transport.(transport.Identifier).ServerIdentity()
}

func (p *probeCounter) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	s, err := p.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &probeCountingStream{Stream: s, probes: p.probes}, nil
}

type probeCountingStream struct {
	jsonrpc.Stream
	probes *atomic.Int32
}

func (s *probeCountingStream) Write(ctx context.Context, m jsonrpc.Message) error {
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == "server/discover" {
		s.probes.Add(1)
	}
	return s.Stream.Write(ctx, m)
}

// runs numbers the runs of TestReconnectSkipsTheEraProbe in this process.
var runs atomic.Int64

// A restarted legacy server is met with initialize at once: the client
// remembered its era from the first connect, so the probe is not sent
// again.
func TestReconnectSkipsTheEraProbe(t *testing.T) {
	s := stdioServer("old", "crash:echo")
	s.Env[mcptest.EnvEras] = "legacy"
	// The client remembers eras per process, by an identity that hashes
	// the env: a value of this run's own keeps a repeated run (-count)
	// from finding the era a former one left.
	s.Env["MCPWIRE_TEST_RUN"] = strconv.FormatInt(runs.Add(1), 10)
	var probes atomic.Int32
	dial := func(ctx context.Context, s *config.Server) (transport.Transport, error) {
		tr, err := DialWith("", nil)(ctx, s)
		if err != nil {
			return nil, err
		}
		return &probeCounter{Transport: tr, probes: &probes}, nil
	}
	m := NewServers([]*config.Server{s}, &Options{Dial: dial, DisableCache: true})
	defer m.Close()
	log := record(m)
	ctx, cancel := context.WithTimeout(t.Context(), realTimeout)
	defer cancel()
	if err := m.Connect(ctx, "old"); err != nil {
		t.Fatal(err)
	}
	if n := probes.Load(); n != 1 {
		t.Fatalf("%d probes at the first connect, want 1", n)
	}
	_, err := m.CallTool(ctx, "mcp__old__echo", map[string]any{"message": "die"}, nil)
	managerError(t, err, "old", nil)
	log.waitFor(t, "old", Connected, 2)
	if _, err := m.CallTool(ctx, "mcp__old__add", map[string]any{"a": 1, "b": 2}, nil); err != nil {
		t.Fatal(err)
	}
	if n := probes.Load(); n != 1 {
		t.Errorf("%d probes after the restart, want still 1", n)
	}
}
