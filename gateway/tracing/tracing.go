// Package tracing traces the gateway's calls with OpenTelemetry: a server
// span for each host's tools/call, continuing the trace whose traceparent
// the host put in params._meta, and a client span for the upstream call,
// whose context goes on to the upstream in its own params._meta.
//
// It is a gateway.CallHook, apart from package gateway because the OTLP
// exporter brings a large dependency tree (gRPC among it) that only the
// mcpwire command, which imports this package, should link.
package tracing

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpwire/mcpwire/gateway"
)

// instrumentation names the tracer, as OpenTelemetry asks of a library.
const instrumentation = "github.com/mcpwire/mcpwire/gateway"

// Hook returns a CallHook that traces each routed call with tp's tracer.
func Hook(tp trace.TracerProvider) gateway.CallHook {
	tracer := tp.Tracer(instrumentation)
	w3c := propagation.TraceContext{}
	return func(ctx context.Context, c *gateway.Call) (context.Context, func(*gateway.CallEnd)) {
		ctx = w3c.Extract(ctx, metaCarrier(hostMeta(c.Meta)))
		attrs := []attribute.KeyValue{
			attribute.String("mcp.method.name", "tools/call"),
			attribute.String("gen_ai.tool.name", c.Tool),
			attribute.String("mcpwire.server", c.Server),
		}
		ctx, serverSpan := tracer.Start(ctx, "tools/call "+c.Server+"/"+c.Tool,
			trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...))
		upCtx, clientSpan := tracer.Start(ctx, "tools/call "+c.Tool,
			trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
		carrier := metaCarrier{}
		w3c.Inject(upCtx, carrier)
		if c.UpstreamMeta == nil {
			c.UpstreamMeta = map[string]any{}
		}
		for k, v := range carrier {
			c.UpstreamMeta[k] = v
		}
		return upCtx, func(e *gateway.CallEnd) {
			for _, span := range []trace.Span{clientSpan, serverSpan} {
				span.SetAttributes(attribute.String("mcpwire.outcome", string(e.Outcome)))
				if e.Outcome != gateway.OutcomeOK {
					span.SetStatus(codes.Error, e.Error)
				}
				span.End()
			}
		}
	}
}

// hostMeta reads the string members of the host's _meta; anything else
// there (a progress token, a number) is not trace context.
func hostMeta(raw json.RawMessage) map[string]string {
	var m map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// metaCarrier carries W3C trace context (traceparent, tracestate) in
// _meta, under those lower-case keys.
type metaCarrier map[string]string

func (m metaCarrier) Get(key string) string { return m[strings.ToLower(key)] }
func (m metaCarrier) Set(key, value string) { m[strings.ToLower(key)] = value }
func (m metaCarrier) Keys() []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}

// Wanted reports whether the environment asks for traces: an OTLP
// endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or ..._TRACES_ENDPOINT)
// or OTEL_TRACES_EXPORTER is "otlp"; OTEL_TRACES_EXPORTER=none and
// OTEL_SDK_DISABLED=true say no whatever else is set.
func Wanted() bool {
	if strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") || strings.EqualFold(os.Getenv("OTEL_TRACES_EXPORTER"), "none") {
		return false
	}
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" ||
		strings.EqualFold(os.Getenv("OTEL_TRACES_EXPORTER"), "otlp")
}

// Start sets up an OTLP/HTTP exporter configured by the standard
// OTEL_EXPORTER_OTLP_* variables (default endpoint localhost:4318) and a
// batching tracer provider whose service is "mcpwire" unless
// OTEL_SERVICE_NAME says otherwise. Its shutdown flushes the spans
// still batched.
func Start(ctx context.Context) (gateway.CallHook, func(context.Context) error, error) {
	if v := os.Getenv("OTEL_TRACES_EXPORTER"); v != "" && !strings.EqualFold(v, "otlp") && !strings.EqualFold(v, "none") {
		return nil, nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: mcpwire exports traces over OTLP only (otlp or none)", v)
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("setting up the OTLP trace exporter: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "mcpwire")),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		_ = exp.Shutdown(ctx)
		return nil, nil, fmt.Errorf("reading OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return Hook(tp), tp.Shutdown, nil
}
