package manager

import (
	"testing"
	"testing/synctest"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// Events mean something happened: in either era, connecting to a server
// whose tools nobody knew before is Connected alone (no ToolsChanged, no
// warning about a list_changed callback the user never set, no
// subscriptions/acknowledged notification); reconnecting to the same
// tools is quiet too; a real change of the tools is ToolsChanged.
func TestEventsOnlyForWhatHappened(t *testing.T) {
	for _, era := range []struct {
		name string
		eras mcptest.Eras
	}{{"legacy", mcptest.LegacyOnly}, {"modern", mcptest.ModernOnly}} {
		t.Run(era.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFleet()
				defer f.close()
				// Tools only: no prompts or resources whose list_changed
				// the manager's callbacks could ask for.
				srv := f.add("a", mcptest.NewServer(&mcptest.Options{Name: "a", Eras: era.eras}))
				srv.AddTool(mcptest.Tool{Name: "echo"}, echoHandler)
				m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, CacheDir: t.TempDir()})
				defer m.Close()
				log := record(m)
				m.Start(t.Context())
				log.waitFor(t, "a", Connected, 1)
				synctest.Wait()
				quiet := func(when string) {
					t.Helper()
					for _, e := range log.list("a") {
						switch {
						case e.Kind == ToolsChanged, e.Kind == Warning:
							t.Errorf("%s: %s", when, e)
						case e.Kind == Notification && e.Notification.Method == mcp.NotificationSubscriptionsAcknowledged:
							t.Errorf("%s: %s", when, e)
						}
					}
				}
				quiet("first connect")

				// The same tools after a reconnect: the cache and the live
				// list agree, nothing changed.
				srv.Fault(mcptest.Fault{Kind: mcptest.FaultCrash, Target: "echo"})
				if _, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "x"}, nil); err == nil {
					t.Fatal("the call that crashes the server succeeded")
				}
				log.waitFor(t, "a", Connected, 2)
				synctest.Wait()
				quiet("reconnect")

				srv.AddTool(mcptest.Tool{Name: "late"}, echoHandler)
				if ev := log.waitFor(t, "a", ToolsChanged, 1); ev.Tools != 2 {
					t.Errorf("ToolsChanged with %d tools, want 2", ev.Tools)
				}
			})
		})
	}
}
