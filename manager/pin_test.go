package manager

import (
	"errors"
	"testing"
	"testing/synctest"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
)

// "protocolVersion" in a server's definition pins its era, as --protocol
// does for one server: a dual-era server pinned to 2025-11-25 speaks
// initialize, one pinned to 2026-07-28 the modern era, and a pin the
// server does not speak fails that server alone.
func TestServerProtocolPin(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("old", mcptest.NewDefault(&mcptest.Options{Name: "old"}))
		f.add("new", mcptest.NewDefault(&mcptest.Options{Name: "new"}))
		f.add("auto", mcptest.NewDefault(&mcptest.Options{Name: "auto"}))
		f.add("refused", mcptest.NewDefault(&mcptest.Options{Name: "refused", Eras: mcptest.LegacyOnly}))
		pinned := func(name, version string) *config.Server {
			s := pipeServer(name)
			s.ProtocolVersion = version
			return s
		}
		m := NewServers([]*config.Server{
			pinned("old", "2025-11-25"), pinned("new", mcp.ModernProtocolVersion),
			pinned("auto", "auto"), pinned("refused", mcp.ModernProtocolVersion),
		}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		log := record(m)
		m.Start(t.Context())
		for name, want := range map[string]string{"old": "2025-11-25", "new": mcp.ModernProtocolVersion, "auto": mcp.ModernProtocolVersion} {
			c, err := m.Client(t.Context(), name)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if got := c.ProtocolVersion(); got != want {
				t.Errorf("%s speaks %s, want %s", name, got, want)
			}
		}
		ev := log.waitFor(t, "refused", Failed, 1)
		var pv *mcp.ProtocolVersionError
		if !errors.As(ev.Err, &pv) {
			t.Errorf("a refused pin failed with %v, want a *mcp.ProtocolVersionError", ev.Err)
		}
	})
}
