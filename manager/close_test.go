package manager

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
)

// Close stops every server, emits Closed for each, is idempotent, and
// makes later calls fail with ErrClosed.
func TestCloseStopsEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("up", nil)
		f.add("slow", nil)
		f.set(func(f *fleet) { f.delay["slow"] = time.Hour; f.fail["down"] = errTest })
		m := NewServers([]*config.Server{pipeServer("up"), pipeServer("slow"), pipeServer("down")},
			&Options{Dial: f.dial, DisableCache: true})
		log := record(m)
		m.Start(t.Context())
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		for _, s := range m.Servers() {
			if s.State != StateStopped {
				t.Errorf("%s: %s after Close", s.Name, s.State)
			}
			if n := log.count(s.Name, Closed); n != 1 {
				t.Errorf("%s: %d Closed events", s.Name, n)
			}
		}
		_, err := m.CallServerTool(t.Context(), "up", "echo", nil, nil)
		managerError(t, err, "up", ErrClosed)
		_, err = m.CallTool(t.Context(), "mcp__up__echo", nil, nil)
		managerError(t, err, "up", ErrClosed)
		managerError(t, m.Connect(t.Context(), "up"), "up", ErrClosed)
		if _, err := m.Start(t.Context()); err == nil {
			t.Error("Start after Close succeeded")
		}
	})
}

// A subscriber that blocks holds up neither the manager nor other
// subscribers, and still gets every event in order once it goes on.
func TestSlowSubscriberDoesNotBlock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		release := make(chan struct{})
		var slow []EventKind
		m.Subscribe(func(e Event) {
			<-release
			slow = append(slow, e.Kind)
		})
		fast := record(m)
		gone := record(m)
		unsubscribe := m.Subscribe(func(Event) { t.Error("called after unsubscribe") })
		unsubscribe()
		m.Start(t.Context())
		fast.waitFor(t, "a", Connected, 1)
		if _, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "x"}, nil); err != nil {
			t.Fatal(err)
		}
		close(release)
		m.Close()
		var want []EventKind
		for _, e := range fast.list("a") {
			want = append(want, e.Kind)
		}
		if len(slow) != len(want) {
			t.Fatalf("slow subscriber got %v, fast %v", slow, want)
		}
		for i := range want {
			if slow[i] != want[i] {
				t.Fatalf("slow subscriber got %v, fast %v", slow, want)
			}
		}
		if len(gone.list("")) != len(want) {
			t.Errorf("subscribers disagree")
		}
		if want[0] != Connecting || want[len(want)-1] != Closed {
			t.Errorf("events %v", want)
		}
	})
}
