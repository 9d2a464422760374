package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// lineWriter hands each Write (one audit line) to a channel.
type lineWriter chan string

func (w lineWriter) Write(b []byte) (int, error) {
	w <- string(b)
	return len(b), nil
}

// opsUpstream has a tool for each outcome: ok, isError, a JSON-RPC error,
// and one that blocks until cancelled.
func opsUpstream(started chan<- struct{}) *server.Server {
	up := server.NewServer(nil)
	up.AddTool(server.Tool{Name: "ok"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
		return server.TextResult("fine"), nil
	})
	up.AddTool(server.Tool{Name: "fails"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
		return nil, errors.New("disk full, key hunter2-configured")
	})
	up.AddTool(server.Tool{Name: "refuses"}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "no such thing")
	})
	up.AddTool(server.Tool{Name: "block"}, func(ctx context.Context, _ *server.ToolRequest) (*server.ToolResult, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	return up
}

// redactSecret stands for the CLI's Redact: it blanks a configured secret.
func redactSecret(s string) string { return strings.ReplaceAll(s, "hunter2-configured", "***") }

// The audit log has one JSON line per call, with who, server, tool,
// duration and outcome; with Arguments, the arguments with secret-looking
// keys and configured secrets blanked. No secret appears in any line.
func TestAuditLogLines(t *testing.T) {
	started := make(chan struct{})
	lines := make(lineWriter, 8)
	c := inProcess(t, map[string]*server.Server{"up": opsUpstream(started)}, &Options{
		Redact: redactSecret,
		Audit:  &AuditOptions{Out: lines, Arguments: true},
	})
	args := map[string]any{"path": "/tmp/x", "Api-Key": "k-123456", "nested": map[string]any{"password": "pw-654321", "note": "uses hunter2-configured"}}
	for _, tool := range []string{"up__ok", "up__fails", "up__refuses"} {
		_, _ = c.CallTool(t.Context(), tool, args, nil)
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-started
		cancel()
	}()
	_, _ = c.CallTool(ctx, "up__block", nil, nil)

	want := []struct{ tool, outcome, errPart string }{
		{"ok", "ok", ""},
		{"fails", "isError", "disk full, key ***"},
		{"refuses", "error", "no such thing"},
		{"block", "cancelled", "canceled"},
	}
	for i, w := range want {
		raw := <-lines
		if strings.Contains(raw, "hunter2") || strings.Contains(raw, "k-123456") || strings.Contains(raw, "pw-654321") {
			t.Errorf("line %d shows a secret: %s", i, raw)
		}
		if !strings.HasSuffix(raw, "\n") || strings.Count(raw, "\n") != 1 {
			t.Errorf("line %d is not one line: %q", i, raw)
		}
		var l struct {
			Time       string          `json:"time"`
			Who        string          `json:"who"`
			Server     string          `json:"server"`
			Tool       string          `json:"tool"`
			DurationMS *float64        `json:"duration_ms"`
			Outcome    string          `json:"outcome"`
			Error      string          `json:"error"`
			Arguments  json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(raw), &l); err != nil {
			t.Fatalf("line %d: %v: %s", i, err, raw)
		}
		if l.Time == "" || l.Who != "stdio" || l.Server != "up" || l.Tool != w.tool || l.DurationMS == nil || *l.DurationMS < 0 || l.Outcome != w.outcome || !strings.Contains(l.Error, w.errPart) {
			t.Errorf("line %d: %s, want tool %s outcome %s error %q", i, raw, w.tool, w.outcome, w.errPart)
		}
		if i == 0 {
			var got map[string]any
			_ = json.Unmarshal(l.Arguments, &got)
			nested, _ := got["nested"].(map[string]any)
			if got["path"] != "/tmp/x" || got["Api-Key"] != "***" || nested["password"] != "***" || nested["note"] != "uses ***" {
				t.Errorf("arguments: %s", l.Arguments)
			}
		}
	}
}

// Without Arguments the audit lines leave them out.
func TestAuditLogLeavesArgumentsOut(t *testing.T) {
	lines := make(lineWriter, 1)
	c := inProcess(t, map[string]*server.Server{"up": opsUpstream(make(chan struct{}))}, &Options{Audit: &AuditOptions{Out: lines}})
	if _, err := c.CallTool(t.Context(), "up__ok", map[string]any{"path": "/tmp/x"}, nil); err != nil {
		t.Fatal(err)
	}
	if l := <-lines; strings.Contains(l, "arguments") || strings.Contains(l, "/tmp/x") {
		t.Errorf("line: %s", l)
	}
}

// scrape GETs path from h and parses the Prometheus text.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	// name{label=value,...} -> value, labels in the order the family has them.
	out := map[string]float64{}
	for name, f := range families {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			key := name + "{" + strings.Join(labels, ",") + "}"
			switch {
			case m.GetCounter() != nil:
				out[key] = m.GetCounter().GetValue()
			case m.GetGauge() != nil:
				out[key] = m.GetGauge().GetValue()
			case m.GetHistogram() != nil:
				out[key+"_count"] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}

// /metrics counts calls by server, tool and outcome, times them, and
// shows each upstream's state and the sessions open; it sits behind the
// endpoint's token, while /healthz and /readyz do not.
func TestMetricsScrape(t *testing.T) {
	started := make(chan struct{})
	g := newGateway(t, map[string]*server.Server{"up": opsUpstream(started)}, nil)
	c := host(t, g, nil)
	for _, tool := range []string{"up__ok", "up__ok", "up__fails", "up__refuses"} {
		_, _ = c.CallTool(t.Context(), tool, nil, nil)
	}
	web := httptest.NewServer(g.Handler(&HTTPOptions{Metrics: true, BearerToken: "metrics-token"}))
	t.Cleanup(web.Close)

	resp, err := http.Get(web.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("/metrics without the token: %d, want 401", resp.StatusCode)
	}
	// The separate handler (--metrics-listen) needs none.
	ops := httptest.NewServer(g.OpsHandler())
	t.Cleanup(ops.Close)
	got := scrape(t, ops.URL+"/metrics")
	for key, want := range map[string]float64{
		"mcpwire_gateway_calls_total{outcome=ok,server=up,tool=ok}":         2,
		"mcpwire_gateway_calls_total{outcome=isError,server=up,tool=fails}": 1,
		"mcpwire_gateway_calls_total{outcome=error,server=up,tool=refuses}": 1,
		"mcpwire_gateway_call_errors_total{server=up,tool=fails}":           1,
		"mcpwire_gateway_call_errors_total{server=up,tool=refuses}":         1,
		"mcpwire_gateway_call_duration_seconds{server=up,tool=ok}_count":    2,
		"mcpwire_gateway_upstream_up{server=up}":                            1,
		"mcpwire_gateway_upstream_state{server=up,state=connected}":         1,
		"mcpwire_gateway_sessions_open{}":                                   1,
	} {
		if got[key] != want {
			t.Errorf("%s = %v, want %v", key, got[key], want)
		}
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get(web.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d, want 200 without a token", path, resp.StatusCode)
		}
	}
	// Closing, the gateway stops being ready: the load balancer moves on.
	_ = g.Close()
	resp, err = http.Get(web.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz after Close: %d, want 503", resp.StatusCode)
	}
}
