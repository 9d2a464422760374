package gateway

import (
	"context"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
)

// A tool an upstream stops listing takes its call series with it: an
// upstream that renames its tools over a long run (a generated name per
// session, say) must not grow the scrape without bound. The tools still
// listed keep theirs.
func TestMetricsForgetToolsNoLongerListed(t *testing.T) {
	up := server.NewServer(nil)
	for _, name := range []string{"stays", "goes"} {
		up.AddTool(server.Tool{Name: name}, func(context.Context, *server.ToolRequest) (*server.ToolResult, error) {
			return server.TextResult("fine"), nil
		})
	}
	g := newGateway(t, map[string]*server.Server{"up": up}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	changed := make(chan struct{}, 64)
	c := host(t, g, &mcp.ClientOptions{OnToolsListChanged: func(context.Context) { changed <- struct{}{} }})
	for _, tool := range []string{"up__stays", "up__goes"} {
		if _, err := c.CallTool(ctx, tool, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	ops := httptest.NewServer(g.OpsHandler())
	t.Cleanup(ops.Close)
	if got := scrape(t, ops.URL+"/metrics"); got["mcpwire_gateway_calls_total{outcome=ok,server=up,tool=goes}"] != 1 {
		t.Fatalf("before: no series for the tool called: %v", got)
	}

	up.RemoveTool("goes")
	for gone := false; !gone; {
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatal("no tools/list_changed reached the host without up__goes")
		}
		list, err := c.ListTools(ctx)
		if err != nil {
			t.Fatal(err)
		}
		gone = !slices.ContainsFunc(list, func(tl mcp.Tool) bool { return tl.Name == "up__goes" })
	}
	got := scrape(t, ops.URL+"/metrics")
	for key := range got {
		if strings.Contains(key, "tool=goes") {
			t.Errorf("a series of the removed tool is still scraped: %s", key)
		}
	}
	if got["mcpwire_gateway_calls_total{outcome=ok,server=up,tool=stays}"] != 1 {
		t.Errorf("the tool still listed lost its series: %v", got)
	}
}
