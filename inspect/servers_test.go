package inspect

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// Reconnect closes the one client before it connects anew, the page's
// watch hears of it, and a failed reconnect shows as failed with its
// reason.
func TestOneServerReconnect(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	dial := func(ctx context.Context) (*mcp.Client, error) {
		stream, _ := mcptest.Connect(t, srv)
		return mcp.Connect(ctx, streamTransport{stream}, nil)
	}
	first, err := dial(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var fail error
	connect := func(ctx context.Context) (*mcp.Client, error) {
		select {
		case <-first.Done(): // never two clients at once
		default:
			t.Error("connecting while the old client is open")
		}
		if fail != nil {
			return nil, fail
		}
		return dial(ctx)
	}
	s := OneServer("demo", "stdio", nil, first, nil, connect)
	changed := make(chan struct{}, 10)
	stop := s.Watch(func() { changed <- struct{}{} })
	defer stop()
	if err := s.(Reconnecter).Reconnect(t.Context(), "demo"); err != nil {
		t.Fatal(err)
	}
	<-changed // the old client ended, or the reconnect ended
	c, err := s.Client(t.Context(), "demo")
	if err != nil || c == first {
		t.Fatalf("after a reconnect the client is %p (the first %p): %v", c, first, err)
	}
	defer c.Close()
	if _, err := c.CallTool(t.Context(), "add", json.RawMessage(`{"a":1,"b":2}`), nil); err != nil {
		t.Fatalf("the new client: %v", err)
	}
	fail = io.ErrUnexpectedEOF
	if err := s.(Reconnecter).Reconnect(t.Context(), "demo"); err != fail {
		t.Fatalf("failed reconnect: %v", err)
	}
	if st := s.List()[0]; st.State != "failed" || !strings.Contains(st.Error, "unexpected EOF") {
		t.Errorf("after a failed reconnect: %+v", st)
	}
	if err := s.(Reconnecter).Reconnect(t.Context(), "other"); err == nil {
		t.Error("reconnected a server that is not there")
	}
}

// A server given no way to connect again says so on the page.
func TestReconnectRefused(t *testing.T) {
	p := newPage(t)
	resp := p.do(t, http.MethodPost, "/api/reconnect", `{"server":"demo"}`, nil)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusNotImplemented || !strings.Contains(string(b), "cannot be reconnected") {
		t.Errorf("reconnect without a connect function: %s %s", resp.Status, b)
	}
}

// The page's Reconnect of a configured server is no crash: asked for
// more often than the manager's breaker allows crashes within its window,
// each makes a new connection and the breaker stays closed.
func TestManagerReconnectKeepsTheBreakerClosed(t *testing.T) {
	srv := mcptest.NewDefault(nil)
	t.Cleanup(func() { srv.Close() })
	set := &config.Set{Servers: []*config.Server{{Name: "demo", Type: config.TypeStdio, Command: "in-process", Enabled: true}}}
	m := manager.New(set, &manager.Options{DisableCache: true, Dial: func(context.Context, *config.Server) (transport.Transport, error) {
		return srv.Transport(), nil
	}})
	t.Cleanup(func() { m.Close() })
	if err := m.Connect(t.Context(), "demo"); err != nil {
		t.Fatal(err)
	}
	p := openPage(t, Options{Servers: ManagerServers(m, "", nil)})
	for i := range 2 * manager.DefaultBreakerCrashes {
		resp := p.do(t, http.MethodPost, "/api/reconnect", `{"server":"demo"}`, nil)
		if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK {
			t.Fatalf("reconnect %d: %s %s", i+1, resp.Status, b)
		}
	}
	if st := p.servers(t)[0]; st.State != string(manager.StateConnected) {
		t.Errorf("after the reconnects: %+v", st.ServerState)
	}
	resp := p.do(t, http.MethodGet, "/api/tools?server=demo", "", nil)
	if b, _ := io.ReadAll(resp.Body); resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"add"`) {
		t.Errorf("tools after the reconnects: %s %s", resp.Status, b)
	}
}
