package cli

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// On a terminal a call without progress shows its elapsed time, redrawn
// in place each second from the second second on, until a notification's
// bar takes the line or the call ends. The bubble's clock is fake: the
// sleeps below move it, they wait for nothing.
func TestProgressElapsedOnATerminal(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errOut := &syncBuffer{}
		p := NewProgress(&IOStreams{IsTerminal: true, Width: 80, ErrOut: errOut}, "add")
		time.Sleep(1500 * time.Millisecond)
		synctest.Wait()
		if got := errOut.String(); got != "" {
			t.Errorf("a call of 1.5s drew %q; a quick call should show nothing", got)
		}
		time.Sleep(44 * time.Second) // 45.5s in
		synctest.Wait()
		if got := errOut.String(); !strings.HasPrefix(got, "\r\x1b[Kadd: still running, 2s\r\x1b[Kadd: still running, 3s") ||
			!strings.HasSuffix(got, "\r\x1b[Kadd: still running, 45s") {
			t.Errorf("after 45.5s stderr = %q, want the elapsed line redrawn each second, ending at 45s", got)
		}
		time.Sleep(80 * time.Second) // 125.5s in
		synctest.Wait()
		if got := errOut.String(); !strings.HasSuffix(got, "\r\x1b[Kadd: still running, 2m5s") {
			t.Errorf("after 125.5s stderr ends %q, want minutes and seconds", got[max(0, len(got)-40):])
		}
		total := 4.0
		p.Update(context.Background(), mcp.ProgressNotification{Progress: 1, Total: &total})
		before := errOut.String()
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if got := errOut.String(); got != before {
			t.Errorf("the elapsed line came back after a notification: %q", got[len(before):])
		}
		p.Done()
		if got := errOut.String(); !strings.HasSuffix(got, "\r\x1b[K") {
			t.Errorf("Done left the live line: %q", got[max(0, len(got)-40):])
		}
		end := errOut.String()
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if got := errOut.String(); got != end {
			t.Errorf("drawn after Done: %q", got[len(end):])
		}
	})
}

// In a pipe (a log, a script) there is no clock line at all.
func TestProgressNoElapsedInAPipe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errOut := &syncBuffer{}
		p := NewProgress(&IOStreams{ErrOut: errOut}, "add")
		time.Sleep(time.Minute)
		synctest.Wait()
		p.Done()
		if got := errOut.String(); got != "" {
			t.Errorf("stderr in a pipe = %q, want nothing", got)
		}
	})
}

// fakeClock is a clock whose ticks the test sends.
type fakeClock struct {
	t0      time.Time
	ticks   chan time.Time
	started chan struct{} // receives once per Ticker call
}

func newFakeClock() *fakeClock {
	return &fakeClock{t0: time.Unix(1_700_000_000, 0), ticks: make(chan time.Time), started: make(chan struct{}, 8)}
}

func (c *fakeClock) Now() time.Time { return c.t0 }

func (c *fakeClock) Ticker(time.Duration) (<-chan time.Time, func()) {
	c.started <- struct{}{}
	return c.ticks, func() {}
}

// tick sends the time d after t0; it returns once the elapsed line's
// goroutine has taken it (the channel is unbuffered).
func (c *fakeClock) tick(d time.Duration) { c.ticks <- c.t0.Add(d) }

// The command wires it up: a call on a terminal that the server does not
// answer shows how long it has waited, and the line is gone before what
// follows.
func TestCallElapsedLineOnATerminal(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	io := &IOStreams{IsTerminal: true, Width: 80, clock: clk}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan result)
	go func() {
		done <- runIO(t, ctx, io, args(a("call", "slow", "--arg", "steps=1", "--arg", "delay_ms=3600000"), server())...)
	}()
	select {
	case <-clk.started: // the call is on its way
	case <-time.After(30 * time.Second): // a guard, not a wait: started comes at once
		cancel()
		<-done
		t.Fatal("the call on a terminal never started the elapsed clock")
	}
	clk.tick(time.Second)
	clk.tick(45 * time.Second)
	clk.tick(46 * time.Second) // taken only once 45s is drawn; drawn before Done clears
	cancel()
	r := <-done
	want := "\r\x1b[Kslow: still running, 45s\r\x1b[Kslow: still running, 46s\r\x1b[K"
	if !strings.HasPrefix(r.err, want) {
		t.Errorf("stderr = %q, want it to start %q", r.err, want)
	}
}

// In a pipe the call never starts the clock.
func TestCallNoElapsedLineInAPipe(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	io := &IOStreams{Width: 80, clock: clk}
	r := runIO(t, t.Context(), io, args(a("call", "slow", "--arg", "steps=1", "--arg", "delay_ms=1"), server())...).wantCode(t, 0)
	if len(clk.started) != 0 || r.err != "progress slow: 1/1 (100%) step 1 of 1\n" {
		t.Errorf("in a pipe: ticker started %d times, stderr %q", len(clk.started), r.err)
	}
}
