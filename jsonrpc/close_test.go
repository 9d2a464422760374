package jsonrpc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// Close inside a subscriber callback returns at once: it does not wait for
// the delivery goroutine that runs its own caller.
func TestCloseFromSubscriber(t *testing.T) { run(t, testCloseFromSubscriber) }

func testCloseFromSubscriber(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		closed := make(chan error, 1)
		var took time.Duration
		c.Subscribe("notifications/message", func(*Notification) {
			start := time.Now()
			closed <- c.Close()
			took = time.Since(start)
		})
		p.send(&Notification{Method: "notifications/message"})
		if err := <-closed; err != nil {
			t.Fatalf("Close from a callback: %v", err)
		}
		synctest.Wait()
		if took != 0 {
			t.Errorf("Close from a callback took %s, want no wait for itself", took)
		}
		if !errors.Is(c.Err(), ErrClosed) {
			t.Errorf("Err() = %v", c.Err())
		}
	})
}

// Close inside a handler returns at once, and the handler's own response
// is not sent.
func TestCloseFromHandlerSynchronously(t *testing.T) { run(t, testCloseFromHandlerSynchronously) }

func testCloseFromHandlerSynchronously(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		closed := make(chan error, 1)
		var took time.Duration
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			start := time.Now()
			closed <- c.Close()
			took = time.Since(start)
			if ctx.Err() == nil {
				t.Error("the handler's ctx is not done after Close")
			}
			return nil, nil
		}
		c, p := newTestConn(t, m, Options{Handler: handler})
		p.send(&Request{ID: Int64ID(1), Method: "shutdown"})
		if err := <-closed; err != nil {
			t.Fatalf("Close from a handler: %v", err)
		}
		synctest.Wait()
		if took != 0 {
			t.Errorf("Close from a handler took %s, want no wait for itself", took)
		}
		<-c.Done()
	})
}

// giveUpOnCall makes one call over a stream whose peer reads the request
// and never answers, and waits for the call's deadline to end it.
func giveUpOnCall(t *testing.T, s *memStream, opts Options) *Conn {
	t.Helper()
	c := NewConn(s, opts)
	p := &peer{t: t, s: s}
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{Timeout: 300 * time.Millisecond})
		done <- err
	}()
	p.recvRequest()
	if err := <-done; !errors.Is(err, ErrTimeout) {
		t.Fatalf("call: %v, want a timeout", err)
	}
	return c
}

// Close right after a call gave up lets the call's notifications/cancelled
// out before it closes the stream.
func TestCloseFlushesCancels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newMemStream(0) // a write waits until the peer reads it
		c := giveUpOnCall(t, s, Options{})
		closed := make(chan error, 1)
		go func() { closed <- c.Close() }()
		synctest.Wait()
		if n := s.closeCalls.Load(); n != 0 {
			t.Fatal("Close closed the stream before the cancel went out")
		}
		select {
		case b := <-s.out:
			if want := `"method":"notifications/cancelled","params":{"requestId":1,`; !strings.Contains(string(b), want) {
				t.Fatalf("wrote %s, want the cancel of id 1", b)
			}
		default:
			t.Fatal("no notifications/cancelled is being written while Close waits")
		}
		if err := <-closed; err != nil {
			t.Fatalf("Close: %v", err)
		}
		if n := s.closeCalls.Load(); n != 1 {
			t.Errorf("stream closed %d times, want 1", n)
		}
	})
}

// The flush is bounded by the CancelTimeout, and Close says what it left
// unsent.
func TestCloseFlushIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newMemStream(0)
		c := giveUpOnCall(t, s, Options{CancelTimeout: 2 * time.Second})
		start := time.Now()
		err := c.Close()
		if d := time.Since(start); d != 2*time.Second {
			t.Errorf("Close took %s, want the CancelTimeout", d)
		}
		if err == nil || !strings.Contains(err.Error(), "closed before 1 notifications/cancelled went out") {
			t.Fatalf("Close: %v, want it to say the cancel was not sent", err)
		}
	})
}

// Close inside a callback, while a cancel is stuck in the stream, returns
// once the CancelTimeout bounded the flush, not later.
func TestCloseFromSubscriberIsBoundedByTheFlush(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newMemStream(0) // nobody reads the cancel: it is stuck
		c := giveUpOnCall(t, s, Options{CancelTimeout: 2 * time.Second})
		p := &peer{t: t, s: s}
		type outcome struct {
			err  error
			took time.Duration
		}
		closed := make(chan outcome, 1)
		c.Subscribe("notifications/message", func(*Notification) {
			start := time.Now()
			err := c.Close()
			closed <- outcome{err, time.Since(start)}
		})
		p.send(&Notification{Method: "notifications/message"})
		got := <-closed
		if got.took != 2*time.Second {
			t.Errorf("Close from a callback took %s, want the CancelTimeout", got.took)
		}
		if got.err == nil || !strings.Contains(got.err.Error(), "closed before 1 notifications/cancelled went out") {
			t.Errorf("Close: %v, want it to say the cancel did not go out", got.err)
		}
	})
}

// Close from another goroutine delivers the notifications that arrived
// before it, waiting for the callback that runs, so that a program which
// closes and exits loses none of them (a server's log before a result).
func TestCloseDeliversWhatArrivedBefore(t *testing.T) { run(t, testCloseDeliversWhatArrivedBefore) }

func testCloseDeliversWhatArrivedBefore(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		release := make(chan struct{})
		var got []string
		c.Subscribe("", func(n *Notification) {
			if len(got) == 0 {
				<-release
			}
			got = append(got, n.Method)
		})
		p.send(&Notification{Method: "notifications/message"})
		p.send(&Notification{Method: "notifications/tools/list_changed"})
		synctest.Wait()
		closed := make(chan error, 1)
		go func() { closed <- c.Close() }()
		synctest.Wait()
		select {
		case err := <-closed:
			t.Fatalf("Close returned (%v) while a callback for an earlier notification ran", err)
		default:
		}
		close(release)
		if err := <-closed; err != nil {
			t.Fatalf("Close: %v", err)
		}
		if len(got) != 2 {
			t.Errorf("delivered %v before Close returned, want both notifications", got)
		}
	})
}

// A callback that calls Close while another Close waits for it gets its
// answer at once, and the first Close then finishes.
func TestCloseFromSubscriberWhileClosing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, byRead, Options{})
		release := make(chan struct{})
		inner := make(chan error, 1)
		c.Subscribe("", func(*Notification) {
			<-release
			inner <- c.Close()
		})
		p.send(&Notification{Method: "notifications/message"})
		synctest.Wait()
		outer := make(chan error, 1)
		go func() { outer <- c.Close() }()
		synctest.Wait()
		close(release)
		if err := <-inner; err != nil {
			t.Errorf("Close from the callback: %v", err)
		}
		start := time.Now()
		if err := <-outer; err != nil {
			t.Errorf("the first Close: %v", err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("the first Close finished %s after the callback returned", d)
		}
	})
}

// A callback that never returns holds Close for the CancelTimeout at
// most, and Close says so.
func TestCloseDeliveryIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, byRead, Options{CancelTimeout: 2 * time.Second})
		release := make(chan struct{})
		defer close(release)
		c.Subscribe("", func(*Notification) { <-release })
		p.send(&Notification{Method: "notifications/message"})
		synctest.Wait()
		start := time.Now()
		err := c.Close()
		if d := time.Since(start); d != 2*time.Second {
			t.Errorf("Close took %s, want the CancelTimeout", d)
		}
		if err == nil || !strings.Contains(err.Error(), "subscriber callbacks still ran") {
			t.Errorf("Close: %v, want it to say a callback still ran", err)
		}
	})
}

// After the stream ended by itself, Close still waits for the callbacks
// of what arrived before the end.
func TestCloseAfterTheStreamEndedDeliversWhatArrived(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, byRead, Options{})
		release := make(chan struct{})
		delivered := false
		c.Subscribe("", func(*Notification) {
			<-release
			delivered = true
		})
		p.send(&Notification{Method: "notifications/message"})
		p.fail(errors.New("the peer went away"))
		<-c.Done()
		closed := make(chan error, 1)
		go func() { closed <- c.Close() }()
		synctest.Wait()
		select {
		case <-closed:
			t.Fatal("Close returned while the callback of an earlier notification ran")
		default:
		}
		close(release)
		<-closed
		if !delivered {
			t.Error("the notification was not delivered before Close returned")
		}
	})
}
