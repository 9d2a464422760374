package manager

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Close stops every server, emits Closed for each, is idempotent, and
// makes later calls fail with ErrShutdown.
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
		managerError(t, err, "up", ErrShutdown)
		_, err = m.CallTool(t.Context(), "mcp__up__echo", nil, nil)
		managerError(t, err, "up", ErrShutdown)
		managerError(t, m.Connect(t.Context(), "up"), "up", ErrShutdown)
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

// Close with a subscriber far behind (20,000 notifications at 1 ms
// each): it drops the queued notifications, delivers the state changes
// up to Closed, returns without error, and no callback runs after it.
func TestCloseEndsDeliveries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true, EventQueue: 100_000})
		var closed atomic.Bool
		var got []EventKind
		m.Subscribe(func(e Event) {
			if closed.Load() {
				t.Errorf("callback for %s after Close returned", e)
			}
			time.Sleep(time.Millisecond)
			got = append(got, e.Kind)
		})
		log := record(m)
		m.Start(t.Context())
		log.waitFor(t, "a", Connected, 1)
		log.Close()
		ss := srv.Sessions()[0]
		for range 20_000 {
			ss.Notify(context.Background(), "test/log", nil)
		}
		start := time.Now()
		if err := m.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if took := time.Since(start); took >= closeGrace {
			t.Errorf("Close took %v", took)
		}
		closed.Store(true)
		time.Sleep(time.Minute)
		synctest.Wait()
		if len(got) == 0 || got[len(got)-1] != Closed {
			t.Errorf("the subscriber's last event is not Closed: %d events, last %v", len(got), got[max(len(got)-3, 0):])
		}
	})
}

// A callback that does not return holds Close up for the grace only;
// Close says so, and no other callback starts after it returns.
func TestCloseReportsStuckCallback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		stuck := make(chan struct{})
		var calls atomic.Int32
		m.Subscribe(func(e Event) {
			calls.Add(1)
			if e.Kind == Closed {
				<-stuck
			}
		})
		m.Start(t.Context())
		m.WaitSettled(t.Context())
		start := time.Now()
		err := m.Close()
		if time.Since(start) != closeGrace {
			t.Errorf("Close returned after %v, want the %v grace", time.Since(start), closeGrace)
		}
		if err == nil || !strings.Contains(err.Error(), "callback still running after 5s") {
			t.Errorf("Close: %v", err)
		}
		n := calls.Load()
		close(stuck)
		synctest.Wait()
		if calls.Load() != n {
			t.Errorf("%d callbacks after Close returned", calls.Load()-n)
		}
	})
}

// Callers waiting for a server are released as soon as Close begins,
// with ErrShutdown, not when the slowest connection has closed.
func TestCloseReleasesWaitersAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.set(func(f *fleet) { f.block["hung"] = true; f.stubborn["slowstop"] = time.Hour })
		m := NewServers([]*config.Server{pipeServer("slowstop"), pipeServer("hung")},
			&Options{Dial: f.dial, DisableCache: true, ReconnectWait: 2 * time.Hour, ConnectTimeout: 2 * time.Hour})
		t0 := time.Now()
		m.Start(t.Context())

		errs := make(chan error, 3)
		go func() {
			_, err := m.CallServerTool(t.Context(), "hung", "echo", nil, nil)
			errs <- err
		}()
		go func() { errs <- m.Connect(t.Context(), "hung") }()
		go func() {
			_, err := m.WaitSettled(t.Context())
			errs <- err
		}()
		synctest.Wait()
		time.Sleep(time.Until(t0.Add(time.Hour - 4*time.Second))) // slowstop stops 4 s after Close begins
		start := time.Now()
		closeDone := make(chan error)
		go func() { closeDone <- m.Close() }()
		for range 3 {
			err := <-errs
			if !errors.Is(err, ErrShutdown) {
				t.Errorf("waiter released with %v, want ErrShutdown", err)
			}
			if waited := time.Since(start); waited != 0 {
				t.Errorf("waiter released %v after Close began", waited)
			}
		}
		<-closeDone
		if took := time.Since(start); took != 4*time.Second {
			t.Errorf("Close took %v; the slow server stops after 4s", took)
		}
	})
}

// A call cut off by Close fails with ErrShutdown, not with the
// jsonrpc.ErrClosed that a crash gives.
func TestCallCutOffByCloseIsErrShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		m.Start(t.Context())
		m.WaitSettled(t.Context())
		errc := make(chan error)
		go func() {
			_, err := m.CallTool(t.Context(), "mcp__a__slow", map[string]any{"steps": 10, "delay_ms": 60000}, nil)
			errc <- err
		}()
		synctest.Wait() // the call is in flight
		m.Close()
		err := <-errc
		managerError(t, err, "a", ErrShutdown)
		if errors.Is(err, jsonrpc.ErrClosed) {
			t.Errorf("a call cut off by Close carries jsonrpc.ErrClosed like a crash: %v", err)
		}
	})
}

// A subscriber that unsubscribed while its callback runs still holds
// Close up until that callback returns: after Close, none runs.
func TestCloseWaitsForUnsubscribedCallback(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		inside := make(chan struct{})
		var running atomic.Bool
		unsubscribe := m.Subscribe(func(e Event) {
			if e.Kind == Connecting {
				running.Store(true)
				close(inside)
				time.Sleep(time.Second)
				running.Store(false)
			}
		})
		m.Start(t.Context())
		<-inside
		unsubscribe()
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
		if running.Load() {
			t.Error("a callback still runs after Close returned")
		}
	})
}
