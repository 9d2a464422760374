package gateway

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/server"
)

// Draining, the gateway stops being ready at once, while the calls of
// sessions already open still go through: the load balancer moves new
// hosts on, and what is under way finishes.
func TestDrainTurnsReadyzButServesCalls(t *testing.T) {
	started := make(chan struct{})
	g := newGateway(t, map[string]*server.Server{"up": opsUpstream(started)}, nil)
	c := host(t, g, nil)
	web := httptest.NewServer(g.Handler(&HTTPOptions{}))
	t.Cleanup(web.Close)
	ready := func() (int, string) {
		resp, err := http.Get(web.URL + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := ready(); code != http.StatusOK {
		t.Fatalf("/readyz before Drain: %d", code)
	}
	g.Drain()
	g.Drain() // a second call changes nothing
	if code, body := ready(); code != http.StatusServiceUnavailable || !strings.Contains(body, "draining") {
		t.Errorf("/readyz while draining: %d %q, want 503 draining", code, body)
	}
	if res, err := c.CallTool(t.Context(), "up__ok", nil, nil); err != nil || res.IsError {
		t.Errorf("a call while draining: %v %+v", err, res)
	}
}
