package manager

import (
	"testing"
	"testing/synctest"

	"github.com/mcpwire/mcpwire/config"
)

// Reconnect makes a new connection each time, at once, and asking for it
// twice as often as the breaker allows crashes, all within the breaker's
// window (virtual time does not move), never opens the breaker: those
// ends are no failures. A server that is not there is named in the error.
func TestReconnectIsNoCrash(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		log := record(m)
		if _, err := m.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		first, err := m.Client(t.Context(), "a")
		if err != nil {
			t.Fatal(err)
		}
		n := 2 * DefaultBreakerCrashes
		for i := range n {
			if err := m.Reconnect(t.Context(), "a"); err != nil {
				t.Fatalf("reconnect %d: %v", i+1, err)
			}
			if st, _ := m.Server("a"); st.State != StateConnected {
				t.Fatalf("after reconnect %d the state is %s", i+1, st.State)
			}
		}
		if c, err := m.Client(t.Context(), "a"); err != nil || c == first {
			t.Errorf("the client after reconnecting is the first one (%v)", err)
		}
		if d := f.dialCount("a"); d != n+1 {
			t.Errorf("%d dials, want %d (the start and each reconnect)", d, n+1)
		}
		synctest.Wait() // the subscriber's goroutine delivers the last events
		if b, fl, r := log.count("a", BreakerOpen), log.count("a", Failed), log.count("a", Reconnecting); b != 0 || fl != 0 || r != n {
			t.Errorf("%d BreakerOpen, %d Failed, %d Reconnecting events; want 0, 0, %d", b, fl, r, n)
		}
		res, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "still here"}, nil)
		if err != nil || text(t, res) != "still here" {
			t.Errorf("a call after the reconnects: %v", err)
		}
		managerError(t, m.Reconnect(t.Context(), "nope"), "nope", ErrUnknownServer)
	})
}
