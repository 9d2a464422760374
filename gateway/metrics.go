package gateway

import (
	"context"
	"net/http"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mcpwire/mcpwire/manager"
)

// metrics are the gateway's Prometheus series, in a registry of its own
// (not the process-wide default, so two gateways in one process do not
// collide). The call series are fed by a CallHook, like the audit log.
type metrics struct {
	reg      *prometheus.Registry
	calls    *prometheus.CounterVec
	errors   *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(g *Gateway) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcpwire_gateway_calls_total",
			Help: "Tool calls routed to an upstream, by server, tool and outcome (ok, isError, error, cancelled, input_required).",
		}, []string{"server", "tool", "outcome"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "mcpwire_gateway_call_errors_total",
			Help: "Tool calls that did not end ok (isError, error or cancelled), by server and tool.",
		}, []string{"server", "tool"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "mcpwire_gateway_call_duration_seconds",
			Help: "Time from the host's tools/call to the upstream's answer, by server and tool.",
			// From a fast local tool (under a millisecond) to a slow one.
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, []string{"server", "tool"}),
	}
	m.reg.MustRegister(m.calls, m.errors, m.duration, &statusCollector{m: g.m, srv: g},
		prometheus.NewGoCollector(), prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}))
	return m
}

// hook counts each routed call.
func (m *metrics) hook(_ context.Context, c *Call) (context.Context, func(*CallEnd)) {
	return nil, func(e *CallEnd) {
		m.calls.WithLabelValues(c.Server, c.Tool, string(e.Outcome)).Inc()
		if e.Outcome != OutcomeOK && e.Outcome != OutcomeInputRequired {
			m.errors.WithLabelValues(c.Server, c.Tool).Inc()
		}
		m.duration.WithLabelValues(c.Server, c.Tool).Observe(e.Duration.Seconds())
	}
}

// forget deletes the call series of every upstream tool routed in prev
// and no longer in now, so that an upstream whose tool names change over
// a long run does not grow the scrape without bound. A call still in
// flight to such a tool makes its series again when it ends; that is
// bounded by the calls in flight.
func (m *metrics) forget(prev, now map[string]route) {
	kept := make(map[route]bool, len(now))
	for _, r := range now {
		kept[r] = true
	}
	for _, r := range prev {
		if kept[r] {
			continue
		}
		labels := prometheus.Labels{"server": r.server, "tool": r.tool}
		m.calls.DeletePartialMatch(labels)
		m.errors.Delete(labels)
		m.duration.Delete(labels)
	}
}

// statusCollector reports, at each scrape, every upstream's state and the
// sessions open: values that are read, not counted.
type statusCollector struct {
	m   *manager.Manager
	srv *Gateway
}

var (
	upstreamUpDesc = prometheus.NewDesc("mcpwire_gateway_upstream_up",
		"1 when the server is connected, 0 otherwise.", []string{"server"}, nil)
	upstreamStateDesc = prometheus.NewDesc("mcpwire_gateway_upstream_state",
		"1 for the server's current state (the manager's: connected, reconnecting, failed, ...).", []string{"server", "state"}, nil)
	sessionsDesc = prometheus.NewDesc("mcpwire_gateway_sessions_open",
		"Host sessions open: stdio, HTTP sessions, and 2026-07-28 requests in flight.", nil, nil)
)

func (c *statusCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- upstreamUpDesc
	ch <- upstreamStateDesc
	ch <- sessionsDesc
}

func (c *statusCollector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c.m.Servers() {
		if len(c.srv.only) > 0 && !slices.Contains(c.srv.only, s.Name) {
			continue
		}
		up := 0.0
		if s.State == manager.StateConnected {
			up = 1
		}
		ch <- prometheus.MustNewConstMetric(upstreamUpDesc, prometheus.GaugeValue, up, s.Name)
		ch <- prometheus.MustNewConstMetric(upstreamStateDesc, prometheus.GaugeValue, 1, s.Name, string(s.State))
	}
	ch <- prometheus.MustNewConstMetric(sessionsDesc, prometheus.GaugeValue, float64(len(c.srv.srv.Sessions())))
}

// MetricsHandler serves the gateway's metrics in the Prometheus text
// format: calls, errors and latency per server and tool, each upstream's
// state, the sessions open, and the Go runtime's and process's own.
// Handler serves it at /metrics behind the endpoint's authentication when
// HTTPOptions.Metrics is set; mount it elsewhere to serve it apart.
func (g *Gateway) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(g.metrics.reg, promhttp.HandlerOpts{})
}
