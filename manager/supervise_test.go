package manager

import (
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A server that crashes on every initialize trips the breaker after five
// failures, well inside 30 s; then nothing restarts it until Connect.
func TestCrashLoopTripsBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("loop", nil)
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultCrash, Target: "initialize", Sticky: true})
		m := NewServers([]*config.Server{pipeServer("loop")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		log := record(m)
		start := time.Now()
		snap, _ := m.Start(t.Context())
		if st := snap.Server("loop"); st.State != StateFailed || st.Err == nil {
			t.Errorf("after the first crash: %+v", st)
		}
		ev := log.waitFor(t, "loop", BreakerOpen, 1)
		if elapsed := time.Since(start); elapsed >= DefaultBreakerWindow {
			t.Errorf("breaker tripped after %v", elapsed)
		}
		if n := f.dialCount("loop"); n != DefaultBreakerCrashes {
			t.Errorf("%d attempts before the breaker, want %d", n, DefaultBreakerCrashes)
		}
		if n := log.count("loop", Failed); n != DefaultBreakerCrashes {
			t.Errorf("%d Failed events, want %d", n, DefaultBreakerCrashes)
		}
		if !strings.Contains(ev.Err.Error(), "5 failures") {
			t.Errorf("BreakerOpen error: %v", ev.Err)
		}
		// Backoff between attempts: 0.5, 1, 2, 4 s, each ±20 %.
		var prev time.Time
		i := 0
		for _, e := range log.list("loop") {
			if e.Kind != Connecting {
				continue
			}
			if i > 0 {
				step := DefaultBackoff()[min(i-1, len(DefaultBackoff())-1)]
				gap := e.Time.Sub(prev)
				if gap < step*8/10 || gap > step*12/10 {
					t.Errorf("attempt %d came %v after the previous, want %v ±20%%", i+1, gap, step)
				}
			}
			prev = e.Time
			i++
		}

		st, _ := m.Server("loop")
		if st.State != StateBreakerOpen {
			t.Errorf("state %s, want breaker-open", st.State)
		}
		time.Sleep(time.Minute)
		if n := f.dialCount("loop"); n != DefaultBreakerCrashes {
			t.Errorf("restarted with the breaker open: %d attempts", n)
		}
		// A call fails at once, clearly.
		before := time.Now()
		_, err := m.CallServerTool(t.Context(), "loop", "echo", map[string]any{"message": "x"}, nil)
		managerError(t, err, "loop", ErrBreakerOpen)
		if time.Since(before) != 0 {
			t.Errorf("a call on a breaker-open server waited %v", time.Since(before))
		}

		// The server is fixed; Connect resets the breaker.
		srv.ClearFaults()
		if err := m.Connect(t.Context(), "loop"); err != nil {
			t.Fatal(err)
		}
		if st, _ := m.Server("loop"); st.State != StateConnected {
			t.Errorf("after Connect: %+v", st)
		}
		if _, err := m.CallTool(t.Context(), "mcp__loop__echo", map[string]any{"message": "x"}, nil); err != nil {
			t.Error(err)
		}
	})
}

// Connect on a server whose attempt fails returns that failure.
func TestConnectReportsFailedAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		f.set(func(f *fleet) { f.fail["bad"] = errors.New("no such thing") })
		m := NewServers([]*config.Server{pipeServer("bad")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		err := m.Connect(t.Context(), "bad")
		managerError(t, err, "bad", nil)
		if !strings.Contains(err.Error(), "no such thing") {
			t.Errorf("Connect: %v", err)
		}
		managerError(t, m.Connect(t.Context(), "nobody"), "nobody", ErrUnknownServer)
	})
}

// A server that dies mid-session comes back with its tools; the call that
// was in flight fails naming the server, a call made meanwhile waits.
func TestCrashedServerReconnects(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		log := record(m)
		if _, err := m.Start(t.Context()); err != nil {
			t.Fatal(err)
		}
		tools := len(m.Tools())

		srv.Fault(mcptest.Fault{Kind: mcptest.FaultCrash, Target: "echo"})
		_, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "boom"}, nil)
		managerError(t, err, "a", jsonrpc.ErrClosed)
		if errors.Is(err, ErrShutdown) {
			t.Errorf("a crash reads as the manager's Close: %v", err)
		}

		ev := log.waitFor(t, "a", Reconnecting, 1)
		if ev.Err == nil || ev.Attempt != 2 {
			t.Errorf("Reconnecting event: %v", ev)
		}
		for _, e := range m.Tools() {
			if !e.Cached {
				t.Errorf("tool %s not marked cached while its server is down", e.Name)
			}
		}
		start := time.Now()
		res, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "back"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if text(t, res) != "back" {
			t.Errorf("echo: %q", text(t, res))
		}
		if waited := time.Since(start); waited > ev.Delay || waited == 0 {
			t.Errorf("the call waited %v; the reconnect was due in %v", waited, ev.Delay)
		}
		log.waitFor(t, "a", Connected, 2)
		if got := len(m.Tools()); got != tools {
			t.Errorf("%d tools after the reconnect, want %d", got, tools)
		}
		for _, e := range m.Tools() {
			if e.Cached {
				t.Errorf("tool %s still cached after the reconnect", e.Name)
			}
		}
	})
}

// A call made while the server cannot reconnect gives up after
// ReconnectWait with ErrNotReady naming the server and the last failure.
func TestCallWaitBoundedByReconnectWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		log := record(m)
		m.Start(t.Context())
		f.set(func(f *fleet) { f.block["a"] = true })
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultCrash, Target: "echo"})
		m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "boom"}, nil)
		log.waitFor(t, "a", Reconnecting, 1)

		start := time.Now()
		_, err := m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "x"}, nil)
		managerError(t, err, "a", ErrNotReady)
		if time.Since(start) != DefaultReconnectWait {
			t.Errorf("gave up after %v, want %v", time.Since(start), DefaultReconnectWait)
		}
		if !strings.Contains(err.Error(), "connection ended") {
			t.Errorf("the error does not say what went wrong before: %v", err)
		}
	})
}

// tools, prompts and resources list_changed refresh those lists; every
// notification reaches subscribers.
func TestListChangedRefreshes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		cacheDir := t.TempDir()
		def := pipeServer("a")
		m := NewServers([]*config.Server{def}, &Options{Dial: f.dial, CacheDir: cacheDir})
		defer m.Close()
		log := record(m)
		m.Start(t.Context())
		log.waitFor(t, "a", Connected, 1)
		prompts, resources := len(m.Prompts()), len(m.Resources())

		srv.AddTool(mcptest.Tool{Name: "extra", Description: "added later"}, echoHandler)
		log.waitFor(t, "a", ToolsChanged, 1)
		if !hasTool(m.Tools(), "mcp__a__extra") {
			t.Fatalf("tool not listed after list_changed: %v", toolNames(m.Tools()))
		}
		res, err := m.CallTool(t.Context(), "mcp__a__extra", map[string]any{"message": "new"}, nil)
		if err != nil || text(t, res) != "new" {
			t.Fatalf("calling the new tool: %v %v", res, err)
		}
		// The refreshed list is cached too.
		cached, _, ok, warn := (&toolCache{dir: cacheDir, ttl: DefaultCacheTTL}).load(cacheKey(def), "a", time.Now())
		if !ok || warn != nil || !hasMCPTool(cached, "extra") {
			t.Errorf("cache after the refresh: ok=%v warn=%v", ok, warn)
		}

		srv.RemoveTool("extra")
		log.waitFor(t, "a", ToolsChanged, 2)
		if hasTool(m.Tools(), "mcp__a__extra") {
			t.Errorf("removed tool still listed")
		}
		_, err = m.CallTool(t.Context(), "mcp__a__extra", nil, nil)
		managerError(t, err, "", ErrUnknownTool)

		srv.AddPrompt(mcptest.Prompt{Name: "later"}, nil)
		log.waitFor(t, "a", PromptsChanged, 1)
		if got := len(m.Prompts()); got != prompts+1 {
			t.Errorf("%d prompts after list_changed, want %d", got, prompts+1)
		}
		srv.AddResource(mcptest.Resource{URI: "mcptest://static/later.txt", Name: "later", Text: "x"})
		log.waitFor(t, "a", ResourcesChanged, 1)
		if got := len(m.Resources()); got != resources+1 {
			t.Errorf("%d resources after list_changed, want %d", got, resources+1)
		}

		methods := map[string]int{}
		for _, e := range log.list("a") {
			if e.Kind == Notification {
				methods[e.Notification.Method]++
			}
		}
		for _, want := range []string{"notifications/tools/list_changed", "notifications/prompts/list_changed", "notifications/resources/list_changed"} {
			if methods[want] == 0 {
				t.Errorf("no Notification event for %s (got %v)", want, methods)
			}
		}
	})
}

// A server that stops answering pings is reconnected.
func TestKeepAliveReconnectsDeadServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true, KeepAlive: 15 * time.Second})
		defer m.Close()
		log := record(m)
		m.Start(t.Context())
		time.Sleep(time.Minute)
		if n := log.count("a", Reconnecting); n != 0 {
			t.Fatalf("a healthy server was reconnected: %s", log)
		}
		start := time.Now()
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: "ping"})
		ev := log.waitFor(t, "a", Reconnecting, 1)
		if !strings.Contains(ev.Err.Error(), "keepalive") || !errors.Is(ev.Err, jsonrpc.ErrTimeout) {
			t.Errorf("Reconnecting: %v", ev.Err)
		}
		// The next tick sends the ping; it times out one interval later.
		if got := time.Since(start); got > 30*time.Second {
			t.Errorf("noticed after %v", got)
		}
		log.waitFor(t, "a", Connected, 2)
	})
}

func hasTool(tools []ToolEntry, name string) bool {
	for _, e := range tools {
		if e.Name == name {
			return true
		}
	}
	return false
}

// A server that never answers initialize trips the breaker with the
// default options: each attempt ends at the connect timeout and counts as
// a failure, so the fifth opens it, after five timeouts and the backoff
// between them. Meanwhile the state says which attempt is under way and
// why the last one failed.
func TestHungServerTripsBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("hung", nil)
		srv.Fault(mcptest.Fault{Kind: mcptest.FaultNeverAnswer, Target: "initialize", Sticky: true})
		m := NewServers([]*config.Server{pipeServer("hung")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		log := record(m)
		start := time.Now()
		m.Start(t.Context())
		if st, _ := m.Server("hung"); st.State != StateConnecting || st.Attempt != 1 {
			t.Errorf("during the first attempt: %s, attempt %d", st.State, st.Attempt)
		}

		log.waitWithin(t, time.Hour, "hung", Connecting, 4)
		st, _ := m.Server("hung")
		if st.State != StateRetrying || st.Attempt != 4 || !errors.Is(st.Err, jsonrpc.ErrTimeout) {
			t.Errorf("during the fourth attempt: %s, attempt %d, last error %v", st.State, st.Attempt, st.Err)
		}

		ev := log.waitWithin(t, time.Hour, "hung", BreakerOpen, 1)
		elapsed := time.Since(start)
		// The documented bound: five connect timeouts and four backoff
		// waits of at most 120 %.
		limit := DefaultBreakerCrashes * DefaultConnectTimeout
		for _, d := range DefaultBackoff() {
			limit += d * 12 / 10
		}
		if elapsed > limit {
			t.Errorf("the breaker opened after %v, documented within %v", elapsed, limit)
		}
		var berr *BreakerError
		if !errors.As(ev.Err, &berr) || berr.Failures != DefaultBreakerCrashes || !errors.Is(ev.Err, ErrBreakerOpen) {
			t.Errorf("BreakerOpen event: %v", ev.Err)
		}
		if n := f.dialCount("hung"); n != DefaultBreakerCrashes {
			t.Errorf("%d attempts, want %d", n, DefaultBreakerCrashes)
		}
		before := time.Now()
		_, err := m.CallServerTool(t.Context(), "hung", "echo", nil, nil)
		managerError(t, err, "hung", ErrBreakerOpen)
		if time.Since(before) != 0 {
			t.Errorf("a call on the open breaker waited %v", time.Since(before))
		}
	})
}

// A connection that stays up for BreakerWindow ends the run of failures:
// a server that crashes now and then, each time after a long life, is
// restarted for ever.
func TestLongLivedConnectionsResetBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet()
		defer f.close()
		srv := f.add("a", nil)
		m := NewServers([]*config.Server{pipeServer("a")}, &Options{Dial: f.dial, DisableCache: true})
		defer m.Close()
		log := record(m)
		m.Start(t.Context())
		for i := range 2 * DefaultBreakerCrashes {
			log.waitFor(t, "a", Connected, i+1)
			time.Sleep(DefaultBreakerWindow)
			srv.Fault(mcptest.Fault{Kind: mcptest.FaultCrash, Target: "echo"})
			m.CallTool(t.Context(), "mcp__a__echo", map[string]any{"message": "x"}, nil)
		}
		log.waitFor(t, "a", Connected, 2*DefaultBreakerCrashes+1)
		if n := log.count("a", BreakerOpen); n != 0 {
			t.Errorf("the breaker opened on a server that crashed every %v", DefaultBreakerWindow)
		}
	})
}
