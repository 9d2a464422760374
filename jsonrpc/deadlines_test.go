package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
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

// The write context needs no timer until Done is asked for; until then
// its Err says the deadline passed once the engine expired the call (the
// first deadline may have moved). Done ends at the call's first deadline
// or the caller's, whichever is first, and cancels what was derived from
// it when the call is over.
func TestWriteContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		p := &pendingCall{}
		w := &writeContext{parent: context.Background(), deadline: start.Add(time.Second), call: p}
		if d, ok := w.Deadline(); !ok || !d.Equal(start.Add(time.Second)) {
			t.Fatalf("deadline %v %v", d, ok)
		}
		if w.Err() != nil || w.made() != nil {
			t.Fatal("Err made a timer or failed before the deadline")
		}
		time.Sleep(time.Second)
		if w.Err() != nil {
			t.Fatalf("Err after the first deadline, the call not expired: %v", w.Err())
		}
		p.expiry.Store(expiryFired)
		if !errors.Is(w.Err(), context.DeadlineExceeded) || w.made() != nil {
			t.Fatalf("Err once the call expired: %v", w.Err())
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

// expiryStream holds every request's Write until the engine expires the
// call through the write context's WatchExpiry, the way the Streamable
// HTTP transport stops a POST still waiting for a JSON reply. Its reader
// delivers progress for the first call at each of progressAt (measured
// from the stream's making), the way the GET listener does meanwhile.
type expiryStream struct {
	closed     chan struct{}
	once       sync.Once
	fired      chan time.Time
	start      time.Time
	progressAt []time.Duration
	// failWith, when set, is what Write returns at failAt instead of
	// watching the expiry: the connection broke while the write waited.
	failWith error
	failAt   time.Duration
}

func (s *expiryStream) Read(ctx context.Context) (Message, error) {
	if len(s.progressAt) > 0 {
		at := s.progressAt[0]
		s.progressAt = s.progressAt[1:]
		select {
		case <-s.closed:
			return nil, io.EOF
		case <-time.After(time.Until(s.start.Add(at))):
			return &Notification{Method: "notifications/progress", Params: json.RawMessage(`{"progressToken":1,"progress":1}`)}, nil
		}
	}
	select {
	case <-s.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *expiryStream) Write(ctx context.Context, m Message) error {
	if _, ok := m.(*Request); !ok {
		return nil
	}
	if s.failWith != nil {
		time.Sleep(time.Until(s.start.Add(s.failAt)))
		return s.failWith
	}
	w, ok := ctx.(interface {
		WatchExpiry(func())
		UnwatchExpiry() bool
	})
	if !ok {
		return errors.New("the write context offers no WatchExpiry")
	}
	stopped := make(chan struct{})
	w.WatchExpiry(func() { close(stopped) })
	select {
	case <-stopped:
	case <-s.closed:
	}
	if !w.UnwatchExpiry() {
		return errors.New("UnwatchExpiry says the expiry did not fire")
	}
	s.fired <- time.Now()
	return context.DeadlineExceeded
}

func (s *expiryStream) Close() error {
	s.once.Do(func() { close(s.closed) })
	return nil
}

// The engine stops a write still under way when it expires the call, at
// the deadline as it stands then: the transport needs no timer of its own
// for the first one, which progress may have moved (here by progress at
// 3s and 7s, to 12s).
func TestExpiryStopsTheWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		s := &expiryStream{closed: make(chan struct{}), fired: make(chan time.Time, 1), start: start,
			progressAt: []time.Duration{3 * time.Second, 7 * time.Second}}
		c := NewConn(s, Options{Timeout: 5 * time.Second, CancelTimeout: time.Second})
		defer c.Close()
		_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{OnProgress: func(Progress) {}})
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("Call: %v, want ErrTimeout", err)
		}
		select {
		case at := <-s.fired:
			if d := at.Sub(start); d != 12*time.Second {
				t.Errorf("the write was stopped after %s, want 12s (the deadline as progress moved it)", d)
			}
		default:
			t.Fatal("the write was not stopped by the expiry")
		}
	})
}

// A write that fails on its own after the call's first deadline, which
// progress had moved, is a failed write, not a timeout: the write context
// says its deadline passed only once the engine expired the call.
func TestWriteFailingAfterMovedDeadlineIsNoTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		broken := errors.New("connection reset by peer")
		s := &expiryStream{closed: make(chan struct{}), fired: make(chan time.Time, 1), start: start,
			progressAt: []time.Duration{3 * time.Second}, failWith: broken, failAt: 6 * time.Second}
		c := NewConn(s, Options{Timeout: 5 * time.Second, CancelTimeout: time.Second})
		defer c.Close()
		_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{OnProgress: func(Progress) {}})
		if errors.Is(err, ErrTimeout) || !errors.Is(err, broken) {
			t.Fatalf("Call: %v, want the write's error, not a timeout (the deadline was at 8s)", err)
		}
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
