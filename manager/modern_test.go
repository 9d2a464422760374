package manager

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A manager pinned to 2026-07-28 runs a server that speaks only that
// revision end to end: it connects, lists, calls, refreshes each list on
// its list_changed, checks health with server/discover (the revision has
// no ping), and reconnects after a crash and after a failed health check.
func TestModernServerEndToEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", mcptest.NewDefault(&mcptest.Options{Name: "a", Eras: mcptest.ModernOnly}))
		const keepAlive = 15 * time.Second
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true, KeepAlive: keepAlive,
			Client: &mcp.ClientOptions{ProtocolVersion: mcp.ModernProtocolVersion}})
		defer m.Close()
		log := record(m)
		if _, err := m.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		if st, _ := m.Server("a"); st.State != StateConnected {
			t.Fatalf("state %v after Start: %s", st.State, log)
		}
		call := func(when, msg string) {
			t.Helper()
			res, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": msg}, nil)
			if err != nil {
				t.Fatalf("%s: calling echo: %v", when, err)
			}
			if got := text(t, res); got != msg {
				t.Errorf("%s: echo said %q, want %q", when, got, msg)
			}
		}
		call("connected", "hello")
		tools, prompts, resources := len(m.Tools()), len(m.Prompts()), len(m.Resources())
		if tools == 0 || prompts == 0 || resources == 0 {
			t.Fatalf("listed %d tools, %d prompts, %d resources", tools, prompts, resources)
		}

		srv.AddTool(mcptest.Tool{Name: "late"}, echoHandler)
		log.waitFor(t, "a", ToolsChanged, 1)
		if res, err := m.CallTool(t.Context(), "mcp__a__late", map[string]any{"message": "new"}, nil); err != nil || text(t, res) != "new" {
			t.Fatalf("calling the added tool: %v %v", res, err)
		}
		srv.AddPrompt(mcptest.Prompt{Name: "late"}, nil)
		log.waitFor(t, "a", PromptsChanged, 1)
		srv.AddResource(mcptest.Resource{URI: "mcptest://static/late.txt", Name: "late", Text: "x"})
		log.waitFor(t, "a", ResourcesChanged, 1)
		if len(m.Prompts()) != prompts+1 || len(m.Resources()) != resources+1 {
			t.Errorf("after list_changed: %d prompts, %d resources; want %d and %d",
				len(m.Prompts()), len(m.Resources()), prompts+1, resources+1)
		}

		// Health checks are server/discover requests.
		discovers := listings(srv, mcp.MethodServerDiscover)
		time.Sleep(4*keepAlive + time.Second)
		synctest.Wait()
		if n := listings(srv, mcp.MethodServerDiscover) - discovers; n < 4 {
			t.Errorf("%d server/discover requests in four keepalive intervals, want 4 or more", n)
		}
		if n := log.count("a", Reconnecting); n != 0 {
			t.Fatalf("a healthy modern server was reconnected: %s", log)
		}

		// A crash: the call in flight fails naming the server, the manager
		// reconnects in the same era, and calls work again.
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultCrash, Target: "echo"})
		_, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "boom"}, nil)
		managerError(t, err, "a", jsonrpc.ErrClosed)
		log.waitFor(t, "a", Connected, 2)
		call("after the crash", "back")
		if got := len(m.Tools()); got != tools+1 {
			t.Errorf("%d tools after the reconnect, want %d", got, tools+1)
		}

		// A health check that goes unanswered ends the connection too.
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: mcp.MethodServerDiscover})
		ev := log.waitFor(t, "a", Reconnecting, 2)
		if ev.Err == nil || !strings.Contains(ev.Err.Error(), "keepalive") || !errors.Is(ev.Err, jsonrpc.ErrTimeout) {
			t.Errorf("Reconnecting after the unanswered health check: %v", ev.Err)
		}
		log.waitFor(t, "a", Connected, 3)
		call("after the health check failed", "again")

		for _, r := range srv.ModernRequests() {
			if r.ProtocolVersion != mcp.ModernProtocolVersion {
				t.Errorf("%s sent with protocol version %q", r.Method, r.ProtocolVersion)
			}
		}
	})
}
