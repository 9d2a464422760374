package gateway

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/manager"
)

// ReviveOptions say how the gateway brings back a server whose manager
// breaker opened. The manager stops restarting a server that failed
// BreakerCrashes times in a row and leaves it to whoever calls Connect;
// a gateway that runs for weeks must not lose a server for good to one
// bad minute (a crash loop while a disk was full, a script being fixed),
// so it calls Connect itself, less and less often, for as long as it
// runs. Each Connect lets the manager try again with its own backoff,
// up to BreakerCrashes attempts, before the breaker opens again.
type ReviveOptions struct {
	// First is the wait before the first try after the breaker opens;
	// each time it opens again without a connection in between, the wait
	// doubles, up to Max. Zero means DefaultReviveFirst and
	// DefaultReviveMax.
	First, Max time.Duration
	// CallGap: a host's call to a server whose breaker is open tries it
	// at once, and waits for the try, when no try started within CallGap,
	// so a server that was fixed answers the next call rather than the
	// next scheduled try; a busy host still starts at most one try (one
	// child process, for a stdio server) per CallGap. Zero means First.
	CallGap time.Duration
	// Off leaves a server with an open breaker alone, as the manager
	// does.
	Off bool
}

// Defaults of ReviveOptions.
const (
	DefaultReviveFirst = 5 * time.Second
	DefaultReviveMax   = time.Minute
)

// reviveCallWait bounds how long a host's call waits for the try it
// started, as the manager bounds a call's wait for a reconnect
// (manager.DefaultReconnectWait).
const reviveCallWait = manager.DefaultReconnectWait

// reviver follows the manager's events: it tells Notice when a server
// goes down, when its breaker opens and when it is back, and it connects
// a server with an open breaker again (scheduled, or on a host's call).
type reviver struct {
	m      *manager.Manager
	ctx    context.Context // ends on the gateway's Close
	opts   ReviveOptions
	notice func(string)

	mu      sync.Mutex
	closed  bool
	servers map[string]*revival
	tries   sync.WaitGroup
}

// revival is one server's health as the reviver knows it.
type revival struct {
	down    bool        // said to be down (or failed at start), not back since
	open    bool        // its breaker is open
	opened  int         // breaker openings since it was last connected
	next    time.Time   // when the scheduled try is due
	timer   *time.Timer // the scheduled try
	lastTry time.Time
	trying  chan struct{} // closed when the try under way ends
	// told and toldAt are the reason and time of the last "stopped"
	// notice, which repeats at the longest wait only when the reason
	// changes or quietHours passed (see breakerOpenLocked).
	told   string
	toldAt time.Time
}

// quietRepeat is how often a server that keeps failing at the longest
// wait, for the same reason, is said to be stopped again: a server that
// can never start would otherwise put a line on stderr every Max (a
// minute) for as long as the gateway runs.
const quietRepeat = time.Hour

func newReviver(ctx context.Context, m *manager.Manager, o *ReviveOptions, notice func(string)) *reviver {
	var opts ReviveOptions
	if o != nil {
		opts = *o
	}
	if opts.First <= 0 {
		opts.First = DefaultReviveFirst
	}
	if opts.Max < opts.First {
		opts.Max = max(DefaultReviveMax, opts.First)
	}
	if opts.CallGap <= 0 {
		opts.CallGap = opts.First
	}
	if notice == nil {
		notice = func(string) {}
	}
	return &reviver{m: m, ctx: ctx, opts: opts, notice: notice, servers: map[string]*revival{}}
}

// seed takes the servers' states once the reviver follows their events:
// a server that failed at start is down already (the caller said so) and
// is told of when it comes back; one whose breaker opened before the
// gateway existed gets its tries. A server an event told of already is
// left as the event left it.
func (r *reviver) seed() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, st := range r.m.Servers() {
		if r.servers[st.Name] != nil {
			continue
		}
		rv := r.server(st.Name)
		switch st.State {
		case manager.StateFailed, manager.StateRetrying, manager.StateReconnecting:
			rv.down = st.Err != nil && !errors.Is(st.Err, manager.ErrInvalidConfig)
		case manager.StateBreakerOpen:
			rv.down = true
			r.breakerOpenLocked(st.Name, rv, st.Err)
		}
	}
}

// server is the record of name; r.mu held.
func (r *reviver) server(name string) *revival {
	rv := r.servers[name]
	if rv == nil {
		rv = &revival{}
		r.servers[name] = rv
	}
	return rv
}

// onEvent follows one state change. It never blocks: tries run on
// goroutines of their own.
func (r *reviver) onEvent(e manager.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	rv := r.server(e.Server)
	switch e.Kind {
	case manager.Connected:
		if rv.down || rv.open {
			r.notice(fmt.Sprintf("server %q is back: connected, %d tools", e.Server, e.Tools))
		}
		rv.stopLocked()
		*rv = revival{lastTry: rv.lastTry, trying: rv.trying}
	case manager.Reconnecting:
		if !rv.down && !rv.open {
			rv.down = true
			r.notice(fmt.Sprintf("server %q is down: %v; the manager reconnects it in %s",
				e.Server, errText(e.Err), e.Delay.Round(10*time.Millisecond)))
		}
	case manager.BreakerOpen:
		rv.down = true
		r.breakerOpenLocked(e.Server, rv, e.Err)
	case manager.Closed:
		rv.stopLocked()
	}
}

// breakerOpenLocked schedules the next try of a server whose breaker
// opened, and says so.
func (r *reviver) breakerOpenLocked(name string, rv *revival, err error) {
	rv.open = true
	rv.opened++
	// The manager's last attempt has just failed: a call within CallGap
	// would only fail again.
	rv.lastTry = time.Now()
	if r.opts.Off {
		r.notice(fmt.Sprintf("server %q stopped: %s; it is not tried again", name, breakerText(err)))
		return
	}
	wait := r.opts.First
	for i := 1; i < rv.opened && wait < r.opts.Max; i++ {
		wait *= 2
	}
	wait = min(wait, r.opts.Max)
	rv.stopLocked()
	now := time.Now()
	rv.next = now.Add(wait)
	rv.timer = time.AfterFunc(wait, func() { r.try(name) })
	why := breakerText(err)
	if wait >= r.opts.Max && why == rv.told && now.Sub(rv.toldAt) < quietRepeat {
		return // said already, at this wait and for this reason
	}
	rv.told, rv.toldAt = why, now
	if wait >= r.opts.Max {
		r.notice(fmt.Sprintf("server %q stopped: %s; the gateway tries it again every %s until it connects (a call to it tries at once, at most once every %s); this is said again when the reason changes, or in %s",
			name, why, r.opts.Max, r.opts.CallGap, quietRepeat))
		return
	}
	r.notice(fmt.Sprintf("server %q stopped: %s; the gateway tries it again in %s, then less and less often, down to once every %s, until it connects (a call to it tries at once, at most once every %s)",
		name, why, wait.Round(time.Millisecond), r.opts.Max, r.opts.CallGap))
}

// breakerText says why a breaker opened, in words for a person: the
// manager's own text names its Go API ("Connect retries").
func breakerText(err error) string {
	var be *manager.BreakerError
	if errors.As(err, &be) {
		return fmt.Sprintf("it failed %d times in a row (last: %v), so the manager stopped restarting it", be.Failures, errText(be.Last))
	}
	return errText(err)
}

// stopLocked cancels the scheduled try.
func (rv *revival) stopLocked() {
	if rv.timer != nil {
		rv.timer.Stop()
		rv.timer = nil
	}
}

// try connects the server again through the manager (which resets its
// breaker and supervises it again), unless a try is under way; it
// returns the channel closed when that try has ended, nil once the
// gateway is closed.
func (r *reviver) try(name string) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.tryLocked(name)
}

func (r *reviver) tryLocked(name string) <-chan struct{} {
	if r.closed {
		return nil
	}
	rv := r.server(name)
	if rv.trying != nil {
		return rv.trying
	}
	rv.stopLocked()
	done := make(chan struct{})
	rv.trying, rv.lastTry = done, time.Now()
	r.tries.Add(1)
	go func() {
		defer r.tries.Done()
		// The outcome shows in the events: Connected, or in time the
		// breaker opening again, which schedules the next try.
		_ = r.m.Connect(r.ctx, name)
		r.mu.Lock()
		if rv := r.servers[name]; rv != nil && rv.trying == done {
			rv.trying = nil
		}
		r.mu.Unlock()
		close(done)
	}()
	return done
}

// callFailed is a host's call that failed because the server's breaker
// is open: it tries the server at once when no try started within
// CallGap (or joins the try under way), waits for it, and reports
// whether the server is connected now, so that the call may be made
// again. Otherwise the error says when the server is tried next.
func (r *reviver) callFailed(ctx context.Context, name string, err error) (bool, error) {
	r.mu.Lock()
	var done <-chan struct{}
	rv := r.server(name)
	if !r.opts.Off && (rv.trying != nil || time.Since(rv.lastTry) >= r.opts.CallGap) {
		done = r.tryLocked(name)
	}
	next, off := rv.next, r.opts.Off
	r.mu.Unlock()
	if off {
		return false, err
	}
	if done == nil {
		return false, &retryError{err: err, note: fmt.Sprintf("the gateway tries it again in %s", max(time.Until(next), 0).Round(time.Second))}
	}
	t := time.NewTimer(reviveCallWait)
	defer t.Stop()
	select {
	case <-done:
	case <-ctx.Done():
		return false, err
	case <-t.C:
	}
	if st, ok := r.m.Server(name); ok && st.State == manager.StateConnected {
		return true, nil
	}
	return false, &retryError{err: err, note: "tried again for this call without success; the manager goes on trying"}
}

// retryError is a breaker's error as a host reads it: why the server is
// out, and that it is not out for good.
type retryError struct {
	err  error
	note string
}

func (e *retryError) Error() string {
	var me *manager.Error
	if errors.As(e.err, &me) && me.Server != "" {
		return fmt.Sprintf("mcp server %q: %s: %s; %s", me.Server, me.Op, breakerText(me.Err), e.note)
	}
	return fmt.Sprintf("%s; %s", breakerText(e.err), e.note)
}

func (e *retryError) Unwrap() error { return e.err }

// close stops the scheduled tries and waits for those under way, which
// the gateway's context has ended.
func (r *reviver) close() {
	r.mu.Lock()
	r.closed = true
	for _, rv := range r.servers {
		rv.stopLocked()
	}
	r.mu.Unlock()
	r.tries.Wait()
}

// errText is err's text, "" for none.
func errText(err error) string {
	if err == nil {
		return "no reason given"
	}
	return err.Error()
}
