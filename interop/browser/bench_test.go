package browser

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mcpwire/mcpwire/mcptest"
)

// Scale of the benchmark: what the page must stay responsive with.
const (
	benchTools    = 1000
	benchMessages = 100000
)

// scaleServer is an HTTP example server with benchTools more tools, whose
// echo tool first sends benchMessages log messages ("flood N").
func scaleServer(tb testing.TB) string {
	srv := mcptest.NewDefault(nil)
	for i := range benchTools {
		srv.AddTool(mcptest.Tool{Name: fmt.Sprintf("tool-%04d", i), Title: fmt.Sprintf("Tool %d", i), Description: "One of a thousand tools."},
			func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
				return mcptest.TextResult("ok"), nil
			})
	}
	srv.Fault(mcptest.Fault{Kind: mcptest.FaultFloodNotifications, Target: "echo", Size: benchMessages})
	return mcptest.NewHTTPServer(tb, srv, nil).URL
}

// timeUntil is a page function: it runs act, waits (frame by frame) until
// done() holds, then for one more frame, so that the time includes
// drawing, and returns the milliseconds taken by the browser's clock.
const timeUntil = `async function timeUntil(act, done) {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const t0 = performance.now();
  act();
  while (!done()) await frame();
  await frame();
  return performance.now() - t0;
}`

// measure evaluates a timeUntil call in the page.
func measure(tb testing.TB, ctx context.Context, what, act, done string) float64 {
	tb.Helper()
	return get(tb, ctx, what, chromedp.Evaluate[float64](`(`+timeUntil+`)(() => {`+act+`}, () => `+done+`)`, chromedp.EvalAwaitPromise))
}

// slow runs browser steps that move 100,000 messages, with more time
// than a test step has.
func slow(ctx context.Context, steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}

// BenchmarkInspectorScale loads 1,000 tools and 100,000 wire messages into
// mcpwire inspect and reports, from the browser's own timings
// (Performance API), the first contentful paint of a reload, when the
// whole wire log is drawn, and how long the tools tab and the two filters
// take to show their answer. Run it by name:
//
//	go test -run '^$' -bench InspectorScale -benchtime 3x ./interop/browser
func BenchmarkInspectorScale(b *testing.B) {
	page := inspector(b, scaleServer(b))
	ctx := browser(b)
	if err := slow(ctx,
		chromedp.Navigate(page),
		tab("tools"),
		chromedp.SendKeys(css(`#tool-search`), "echo", chromedp.NodeVisible),
		chromedp.Click(css(`li[data-tool="echo"]`), chromedp.NodeVisible),
		chromedp.SetValue(css(`[name="message"]`), "go"),
		chromedp.Click(css(`#call`)),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`state.wire.length >= %d && state.tools.length`, benchMessages), chromedp.WithPollingTimeout(0)),
	); err != nil {
		n := get(b, ctx, "count the messages", chromedp.Evaluate[int](`state.wire.length`))
		b.Fatalf("filling the wire with %d messages (the page has %d): %v", benchMessages, n, err)
	}
	var paint, wire, tools, filterTools, filterWire float64
	for b.Loop() {
		if err := slow(ctx, chromedp.Navigate(page),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`state.wire.length >= %d && performance.getEntriesByName("wire-drawn").length > 0`, benchMessages), chromedp.WithPollingTimeout(0))); err != nil {
			b.Fatalf("reloading the page: %v", err)
		}
		paint += get(b, ctx, "first paint", chromedp.Evaluate[float64](`performance.getEntriesByName("first-contentful-paint")[0].startTime`))
		wire += get(b, ctx, "wire drawn", chromedp.Evaluate[float64](`performance.getEntriesByName("wire-drawn")[0].startTime`))
		tools += measure(b, ctx, "open the tools", `document.querySelector('#tabs button[data-tab="tools"]').click()`,
			fmt.Sprintf(`state.tools.length > %d && document.querySelectorAll("#tool-list li").length > 0`, benchTools))
		filterTools += measure(b, ctx, "filter the tools", reactType("#tool-search", "tool-0999"), `document.querySelectorAll("#tool-list li").length === 1`)
		run(b, ctx, "open the wire", tab("wire"))
		filterWire += measure(b, ctx, "filter the wire", reactType("#wire-filter", fmt.Sprintf("flood %d", benchMessages-1)),
			`state.wireView.length === 1 && document.querySelectorAll("#wire tr.entry").length === 1`)
	}
	shot(b, ctx, "scale-wire-filtered")
	n := float64(b.N)
	b.ReportMetric(paint/n, "first-paint-ms")
	b.ReportMetric(wire/n, "wire-drawn-ms")
	b.ReportMetric(tools/n, "tools-tab-ms")
	b.ReportMetric(filterTools/n, "filter-tools-ms")
	b.ReportMetric(filterWire/n, "filter-wire-ms")
	b.ReportMetric(0, "ns/op")
}
