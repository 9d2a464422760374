package gateway

import (
	"net/http/httptest"
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// The HTTP call benchmarks are call_bench_test.go's over Streamable HTTP
// on loopback, as `mcpwire serve --listen` is reached (bench/NOTES.md,
// "The gateway (#35), fourth round"): BenchmarkGatewayHTTPCall reaches
// the gateway's handler, BenchmarkDirectHTTPCall the same server core
// serving the echo tool itself, so the difference is what the gateway's
// HTTP path and its upstream call add. Both run the host in the 2025-11-25
// era, with a session, as bench/'s gw workload does.

func benchHTTPHost(b *testing.B, url string) *mcp.Client {
	c, err := mcp.Connect(b.Context(), &transport.StreamableHTTP{URL: url + "/mcp", DisableListener: true}, hostOpts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = c.Close() })
	return c
}

func BenchmarkGatewayHTTPCall(b *testing.B) {
	g := benchGateway(b, "")
	web := httptest.NewServer(g.Handler(nil))
	b.Cleanup(web.Close)
	benchCalls(b, benchHTTPHost(b, web.URL), "up__echo")
}

func BenchmarkDirectHTTPCall(b *testing.B) {
	srv := server.NewDefault(&server.Options{NoRecord: true})
	h := srv.StreamableHTTPHandler(nil)
	web := httptest.NewServer(h)
	b.Cleanup(func() { web.Close(); h.Close(); _ = srv.Close() })
	benchCalls(b, benchHTTPHost(b, web.URL), "echo")
}
