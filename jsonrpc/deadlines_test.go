package jsonrpc

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// One timer serves all the calls of a connection: a call with an earlier
// deadline than those already waiting must still end on time, and a call
// with a later one must not be ended by the sweep of an earlier one.
func TestDeadlinesOfManyCalls(t *testing.T) { run(t, testDeadlinesOfManyCalls) }

func testDeadlinesOfManyCalls(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{CancelTimeout: time.Second})
		start := time.Now()
		type outcome struct {
			timeout time.Duration
			err     error
			after   time.Duration
		}
		done := make(chan outcome)
		call := func(timeout time.Duration) {
			_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{Timeout: timeout})
			done <- outcome{timeout, err, time.Since(start)}
		}
		// In this order: the second's deadline is before the first's,
		// the third's after both.
		for _, d := range []time.Duration{9 * time.Second, 2 * time.Second, 20 * time.Second} {
			go call(d)
			p.recvRequest()
		}
		for range 3 {
			o := <-done
			if !errors.Is(o.err, ErrTimeout) || o.after != o.timeout {
				t.Errorf("call with timeout %s: %v after %s", o.timeout, o.err, o.after)
			}
			p.recvNotification()
		}
	})
}

// A call answered before its deadline is not ended by a sweep due for
// another; the sweep arms itself for the deadline left.
func TestSweepSparesAnsweredAndLaterCalls(t *testing.T) { run(t, testSweepSparesAnsweredAndLaterCalls) }

func testSweepSparesAnsweredAndLaterCalls(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{Timeout: 5 * time.Second, CancelTimeout: time.Second})
		first := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, nil)
			first <- err
		}()
		req := p.recvRequest()
		p.reply(req, `{}`)
		if err := <-first; err != nil {
			t.Fatal(err)
		}
		// The timer still stands for the first call's deadline (5s);
		// this call's is at 8s.
		time.Sleep(3 * time.Second)
		start := time.Now()
		second := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, nil)
			second <- err
		}()
		p.recvRequest()
		if err := <-second; !errors.Is(err, ErrTimeout) || time.Since(start) != 5*time.Second {
			t.Fatalf("got %v after %s, want a timeout after 5s", err, time.Since(start))
		}
		p.recvNotification()
	})
}

// The write context needs no timer until Done is asked for, ends at the
// call's deadline or the caller's, whichever is first, and cancels what
// was derived from it when the call is over.
func TestWriteContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		w := &writeContext{parent: context.Background(), deadline: start.Add(time.Second)}
		if d, ok := w.Deadline(); !ok || !d.Equal(start.Add(time.Second)) {
			t.Fatalf("deadline %v %v", d, ok)
		}
		if w.Err() != nil || w.made() != nil {
			t.Fatal("Err made a timer or failed before the deadline")
		}
		time.Sleep(time.Second)
		if !errors.Is(w.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err after the deadline: %v", w.Err())
		}
		w.release()

		parent, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		w = &writeContext{parent: parent, deadline: time.Now().Add(time.Hour)}
		if d, _ := w.Deadline(); !d.Equal(time.Now().Add(time.Second)) {
			t.Fatalf("deadline %v, want the caller's", d)
		}
		child, stopChild := context.WithCancel(w)
		defer stopChild()
		select {
		case <-w.Done():
			t.Fatal("done early")
		default:
		}
		time.Sleep(time.Second)
		<-w.Done()
		<-child.Done()
		if !errors.Is(w.Err(), context.DeadlineExceeded) {
			t.Fatalf("Err: %v", w.Err())
		}
		w.release()

		w = &writeContext{parent: context.Background(), deadline: time.Now().Add(time.Hour)}
		_ = w.Done()
		child, stopChild = context.WithCancel(w)
		defer stopChild()
		w.release()
		<-child.Done()
	})
}

// A call whose ctx ends before the call's own deadline leaves that
// deadline to ctx: no sweep timer is armed for it, and the call still
// ends when ctx does. A call whose ctx outlives its deadline arms one.
func TestShorterCtxArmsNoSweep(t *testing.T) { run(t, testShorterCtxArmsNoSweep) }

func testShorterCtxArmsNoSweep(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{Timeout: 5 * time.Second, CancelTimeout: time.Second})
		armed := func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.state.sweeper != nil
		}
		start := time.Now()
		done := make(chan error)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_, err := c.Call(ctx, "tools/call", nil, nil)
			done <- err
		}()
		p.recvRequest()
		if armed() {
			t.Error("a call whose ctx ends first armed the sweep")
		}
		if err := <-done; !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 2*time.Second {
			t.Fatalf("got %v after %s, want ctx's deadline after 2s", err, time.Since(start))
		}
		p.recvNotification()

		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := c.Call(ctx, "tools/call", nil, nil)
			done <- err
		}()
		p.recvRequest()
		if !armed() {
			t.Error("a call whose ctx outlives its deadline armed no sweep")
		}
		if err := <-done; !errors.Is(err, ErrTimeout) || time.Since(start) != 7*time.Second {
			t.Fatalf("got %v after %s, want the call's timeout at 7s", err, time.Since(start))
		}
		p.recvNotification()
	})
}
