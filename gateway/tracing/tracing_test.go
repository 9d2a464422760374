package tracing

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// A host's call through the gateway over HTTP: the gateway's server span
// continues the host's trace, its client span is the server span's child,
// and the upstream receives the client span's traceparent (and the host's
// tracestate) in params._meta.
func TestTracesContinueAndPropagate(t *testing.T) {
	seen := make(chan json.RawMessage, 1)
	up := server.NewServer(nil)
	t.Cleanup(func() { _ = up.Close() })
	up.AddTool(server.Tool{Name: "echo"}, func(_ context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
		seen <- req.Meta
		return server.TextResult("ok"), nil
	})
	m := manager.NewServers([]*config.Server{{Name: "up", Type: config.TypeStdio, Command: "in-process", Enabled: true}}, &manager.Options{
		DisableCache: true,
		Dial:         func(context.Context, *config.Server) (transport.Transport, error) { return up.Transport(), nil },
	})
	t.Cleanup(func() { _ = m.Close() })
	if _, err := m.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := m.WaitSettled(t.Context()); err != nil {
		t.Fatal(err)
	}
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	g, err := gateway.New(m, &gateway.Options{Hooks: []gateway.CallHook{Hook(tp)}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	web := httptest.NewServer(g.Handler(nil))
	t.Cleanup(web.Close)

	tr, err := transport.FromServer(&config.Server{Type: config.TypeHTTP, URL: web.URL + "/mcp"}, transport.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := mcp.Connect(t.Context(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	const hostTrace, hostSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	_, err = c.CallTool(t.Context(), "up__echo", nil, &mcp.CallOptions{Meta: map[string]any{
		"traceparent": "00-" + hostTrace + "-" + hostSpan + "-01", "tracestate": "vendor=v1",
	}})
	if err != nil {
		t.Fatal(err)
	}

	ended := spans.Ended()
	if len(ended) != 2 {
		t.Fatalf("%d spans ended, want 2", len(ended))
	}
	var srv, cli sdktrace.ReadOnlySpan
	for _, s := range ended {
		switch s.SpanKind() {
		case trace.SpanKindServer:
			srv = s
		case trace.SpanKindClient:
			cli = s
		}
	}
	if srv == nil || cli == nil {
		t.Fatalf("want a server and a client span: %v", ended)
	}
	if srv.SpanContext().TraceID().String() != hostTrace || srv.Parent().SpanID().String() != hostSpan || !srv.Parent().IsRemote() {
		t.Errorf("server span %s, parent %s: does not continue the host's trace", srv.SpanContext().TraceID(), srv.Parent().SpanID())
	}
	if cli.Parent().SpanID() != srv.SpanContext().SpanID() || cli.SpanContext().TraceID() != srv.SpanContext().TraceID() {
		t.Errorf("the client span is not the server span's child")
	}

	var meta struct{ Traceparent, Tracestate string }
	select {
	case raw := <-seen:
		_ = json.Unmarshal(raw, &meta)
	default: // the upstream answered before the call returned
		t.Fatal("the upstream was not called")
	}
	want := "00-" + hostTrace + "-" + cli.SpanContext().SpanID().String() + "-01"
	if meta.Traceparent != want || meta.Tracestate != "vendor=v1" {
		t.Errorf("upstream _meta traceparent %q tracestate %q, want %q and vendor=v1", meta.Traceparent, meta.Tracestate, want)
	}
}
