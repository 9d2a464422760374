package gateway

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// The call benchmarks profile the gateway's own cost per tools/call
// (bench/NOTES.md, "The gateway"): the host's client reaches the gateway
// over a pair of OS pipes, as `mcpwire serve --stdio` is reached, and the
// upstream is a real child process (this test binary as the default
// server). BenchmarkDirectCall is the same call without the gateway, so
// the difference is what the gateway adds. Run with -cpuprofile or
// -memprofile; speed is never asserted.

var echoArgs = map[string]any{"message": "hello"}

// hostOpts pin the host to the 2025-11-25 era, as bench/'s gw workload does.
var hostOpts = &mcp.ClientOptions{ProtocolVersion: mcp.LatestLegacyProtocolVersion}

func upstreamChild() *transport.Command {
	c := server.ChildCommand()
	return &transport.Command{Command: c.Path, Args: c.Args, Env: c.Env}
}

// benchGateway starts a gateway over the child, which it reaches in the
// era that version pins ("" for the client's default, the 2026-07-28 era
// against this child). It relays the upstream's questions to the host, as
// `mcpwire serve` does, so that each call is tracked for the relay.
func benchGateway(b *testing.B, version string) *Gateway {
	child := upstreamChild()
	relay := &Relay{}
	client := &mcp.ClientOptions{}
	relay.Apply(client)
	m := manager.NewServers([]*config.Server{{Name: "up", Type: config.TypeStdio, Command: "child", Enabled: true, ProtocolVersion: version}},
		&manager.Options{DisableCache: true, Client: client, Dial: func(context.Context, *config.Server) (transport.Transport, error) { return child, nil }})
	b.Cleanup(func() { _ = m.Close() })
	if _, err := m.Start(b.Context()); err != nil {
		b.Fatal(err)
	}
	if _, err := m.WaitSettled(b.Context()); err != nil {
		b.Fatal(err)
	}
	g, err := New(m, &Options{Relay: relay})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = g.Close() })
	return g
}

// benchGatewayHost starts a gateway over the child and connects a host to
// it over OS pipes.
func benchGatewayHost(b *testing.B, version string) *mcp.Client {
	g := benchGateway(b, version)
	upR, upW, err := os.Pipe() // host -> gateway
	if err != nil {
		b.Fatal(err)
	}
	downR, downW, err := os.Pipe() // gateway -> host
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- g.ServeLines(context.Background(), upR, downW) }()
	b.Cleanup(func() { <-served })
	// The host reads through a plain io.Reader, not the *os.File, so
	// that its reading stays the same whatever NewStream does with OS
	// pipes: the benchmark measures the gateway's side.
	c, err := mcp.NewClient(b.Context(), transport.NewStream(plainReader{downR}, upW, closers{downR, upW}), hostOpts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	return c
}

type plainReader struct{ io.Reader }

type closers []interface{ Close() error }

func (cs closers) Close() error {
	for _, c := range cs {
		_ = c.Close()
	}
	return nil
}

func benchCalls(b *testing.B, c *mcp.Client, tool string) {
	b.ReportAllocs()
	b.Run("seq", func(b *testing.B) {
		for b.Loop() {
			res, err := c.CallTool(b.Context(), tool, echoArgs, nil)
			if err != nil || res.IsError {
				b.Fatalf("call: %v %+v", err, res)
			}
		}
	})
	b.Run("conc", func(b *testing.B) {
		b.SetParallelism(32) // 64 callers on the 2-core machine
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				res, err := c.CallTool(context.Background(), tool, echoArgs, nil)
				if err != nil || res.IsError {
					b.Errorf("call: %v %+v", err, res)
					return
				}
			}
		})
	})
}

// BenchmarkGatewayCall reaches the upstream in the 2026-07-28 era;
// BenchmarkGatewayCallLegacy in the 2025-11-25 one, as bench/'s gw
// workload reaches its canned server.
func BenchmarkGatewayCall(b *testing.B) { benchCalls(b, benchGatewayHost(b, ""), "up__echo") }

func BenchmarkGatewayCallLegacy(b *testing.B) {
	benchCalls(b, benchGatewayHost(b, mcp.LatestLegacyProtocolVersion), "up__echo")
}

func BenchmarkDirectCall(b *testing.B) {
	c, err := mcp.Connect(b.Context(), upstreamChild(), hostOpts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	benchCalls(b, c, "echo")
}
