package jsonrpc

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// turnStream is a memStream that offers reading in turns. It records, for
// each message it delivered, whether a caller's turn read it (a caller's
// turn has a deadline; the read goroutine's has none).
type turnStream struct {
	*memStream
	interrupt chan struct{}

	mu       sync.Mutex
	turn     bool // a turn runs; two at once break the contract
	byCaller []bool
	overlap  bool
}

func newTurnStream(s *memStream) *turnStream {
	return &turnStream{memStream: s, interrupt: make(chan struct{}, 1)}
}

func (s *turnStream) ReadTurn(deadline time.Time, to receiver) error {
	s.mu.Lock()
	if s.turn {
		s.overlap = true
	}
	s.turn = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.turn = false
		s.mu.Unlock()
	}()
	// A new turn clears an Interrupt meant for an earlier one.
	select {
	case <-s.interrupt:
	default:
	}
	var expired <-chan time.Time
	if !deadline.IsZero() {
		timer := time.NewTimer(time.Until(deadline))
		defer timer.Stop()
		expired = timer.C
	}
	for {
		if s.readErr != nil {
			return s.readErr
		}
		var msg Message
		var err error
		select {
		case f := <-s.in:
			if f.err != nil {
				if !IsDecodeError(f.err) {
					s.readErr = f.err
					return f.err
				}
				err = f.err
			} else {
				msg, err = DecodeMessage(f.frame)
			}
		case <-s.closed:
			return errMemClosed
		case <-s.interrupt:
			return nil
		case <-expired:
			return nil
		}
		s.mu.Lock()
		s.byCaller = append(s.byCaller, !deadline.IsZero())
		s.mu.Unlock()
		if !to.Receive(msg, err) {
			return nil
		}
	}
}

func (s *turnStream) Interrupt() {
	select {
	case s.interrupt <- struct{}{}:
	default:
	}
}

// readers says, per message read so far, whether a caller read it.
func (s *turnStream) readers() (byCaller []bool, overlap bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]bool(nil), s.byCaller...), s.overlap
}

// newTurnConn starts a Conn over a turnStream.
func newTurnConn(t *testing.T, opts Options) (*Conn, *peer, *turnStream) {
	s := newMemStream(64)
	ts := newTurnStream(s)
	c := NewConn(ts, opts)
	t.Cleanup(func() { c.Close() })
	return c, &peer{t: t, s: s}, ts
}

// callAsync runs c.Call on a goroutine and returns its outcome channel.
func callAsync(ctx context.Context, c *Conn, method string) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := c.Call(ctx, method, nil, nil)
		done <- err
	}()
	return done
}

// firstCall makes one call and waits for its response; the next caller
// starts from a connection that has served a call.
func firstCall(t *testing.T, c *Conn, peer *peer) {
	t.Helper()
	done := callAsync(t.Context(), c, "first")
	peer.reply(peer.recvRequest(), `{}`)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// Sequential calls read their own responses, the first one included (the
// turn starts free, as after a response): no response is handed from one
// goroutine to another.
func TestTurnsSequentialCallersReadTheirOwnResponses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, peer, ts := newTurnConn(t, Options{})
		for i := range 4 {
			done := callAsync(t.Context(), c, "m")
			peer.reply(peer.recvRequest(), `{}`)
			if err := <-done; err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
			// The caller is woken before the read goroutine gives up
			// the turn; "sequential" means the next call comes after.
			synctest.Wait()
		}
		byCaller, overlap := ts.readers()
		if overlap {
			t.Fatal("two turns ran at once")
		}
		want := []bool{true, true, true, true}
		if len(byCaller) != len(want) {
			t.Fatalf("%d messages read, want %d", len(byCaller), len(want))
		}
		for i := range want {
			if byCaller[i] != want[i] {
				t.Fatalf("response %d read by a caller: %v, want %v (all: %v)", i, byCaller[i], want[i], byCaller)
			}
		}
	})
}

// Before the first call, the turn is free as after a response: the peer's
// first messages are read by the read goroutine within idleTurnDelay.
func TestTurnsPeerSpeaksFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, peer, ts := newTurnConn(t, Options{})
		got := make(chan *Notification, 1)
		stop := c.Subscribe("note", func(n *Notification) { got <- n })
		defer stop()
		start := time.Now()
		peer.send(&Notification{Method: "note"})
		<-got
		if waited := time.Since(start); waited > idleTurnDelay {
			t.Fatalf("the notification waited %v, more than %v", waited, idleTurnDelay)
		}
		if byCaller, _ := ts.readers(); len(byCaller) != 1 || byCaller[0] {
			t.Fatalf("read by a caller: %v, want one message read by the read goroutine", byCaller)
		}
	})
}

// Between calls, the peer's messages are read once the connection has
// been idle for idleTurnDelay, by the read goroutine.
func TestTurnsIdleConnectionStillReads(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, peer, ts := newTurnConn(t, Options{})
		got := make(chan *Notification, 1)
		stop := c.Subscribe("note", func(n *Notification) { got <- n })
		defer stop()
		done := callAsync(t.Context(), c, "m")
		peer.reply(peer.recvRequest(), `{}`)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		peer.send(&Notification{Method: "note"})
		<-got
		if waited := time.Since(start); waited > idleTurnDelay {
			t.Fatalf("the notification waited %v, more than %v", waited, idleTurnDelay)
		}
		byCaller, _ := ts.readers()
		if byCaller[len(byCaller)-1] {
			t.Fatal("a caller read a notification after its call returned")
		}
	})
}

// A caller reading for its response returns at once when its ctx ends;
// the read goroutine then reads on.
func TestTurnsReadingCallerCancelled(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, peer, _ := newTurnConn(t, Options{})
		firstCall(t, c, peer)
		ctx, cancel := context.WithCancel(t.Context())
		done := callAsync(ctx, c, "slow")
		req := peer.recvRequest()
		synctest.Wait() // the caller is reading
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
		if n := peer.recvNotification(); n.Method != MethodCancelled {
			t.Fatalf("got %s, want %s", n.Method, MethodCancelled)
		}
		// The late response is dropped; the next call works.
		peer.reply(req, `{}`)
		done = callAsync(t.Context(), c, "next")
		peer.reply(peer.recvRequest(), `{"ok":true}`)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}

// A caller reading for its response is stopped by its own deadline.
func TestTurnsReadingCallerTimesOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, peer, _ := newTurnConn(t, Options{Timeout: time.Second})
		firstCall(t, c, peer)
		start := time.Now()
		done := callAsync(t.Context(), c, "slow")
		peer.recvRequest()
		if err := <-done; !errors.Is(err, ErrTimeout) {
			t.Fatalf("err = %v, want ErrTimeout", err)
		}
		if d := time.Since(start); d != time.Second {
			t.Fatalf("timed out after %v, want 1s", d)
		}
	})
}

// The stream ending under a reading caller fails its call and the
// connection, with the stream's error.
func TestTurnsStreamEndsUnderReadingCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, peer, _ := newTurnConn(t, Options{})
		firstCall(t, c, peer)
		done := callAsync(t.Context(), c, "m")
		peer.recvRequest()
		boom := errors.New("child exited")
		peer.fail(boom)
		err := <-done
		if !errors.Is(err, ErrClosed) || !errors.Is(err, boom) {
			t.Fatalf("err = %v, want ErrClosed and the cause", err)
		}
		<-c.Done()
		if !errors.Is(c.Err(), boom) {
			t.Fatalf("Err() = %v, want the cause", c.Err())
		}
	})
}

// Close under a reading caller fails its call at once.
func TestTurnsCloseUnderReadingCaller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, peer, _ := newTurnConn(t, Options{})
		firstCall(t, c, peer)
		done := callAsync(t.Context(), c, "m")
		peer.recvRequest()
		synctest.Wait()
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; !errors.Is(err, ErrClosed) {
			t.Fatalf("err = %v, want ErrClosed", err)
		}
	})
}

// A reading caller dispatches what else it reads: another call's response
// and the peer's request, whose handler answers.
func TestTurnsReadingCallerDispatchesEverything(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		handled := make(chan string, 1)
		c, peer, ts := newTurnConn(t, Options{Handler: func(ctx context.Context, c *Conn, req *Request) (any, error) {
			handled <- req.Method
			return map[string]int{"n": 1}, nil
		}})
		firstCall(t, c, peer)
		a := callAsync(t.Context(), c, "a")
		reqA := peer.recvRequest()
		synctest.Wait() // a reads
		b := callAsync(t.Context(), c, "b")
		reqB := peer.recvRequest()
		peer.send(&Request{ID: StringID("srv"), Method: "ping"})
		if m := <-handled; m != "ping" {
			t.Fatalf("handled %q", m)
		}
		if r := peer.recvResponse(); r.ID != StringID("srv") {
			t.Fatalf("response to %s, want srv", r.ID)
		}
		peer.reply(reqB, `{}`)
		if err := <-b; err != nil {
			t.Fatal(err)
		}
		peer.reply(reqA, `{}`)
		if err := <-a; err != nil {
			t.Fatal(err)
		}
		if _, overlap := ts.readers(); overlap {
			t.Fatal("two turns ran at once")
		}
	})
}

// parkingStream is a turnStream that can park (readmode.Parker). It
// records its parks and whether one came from the read goroutine.
type parkingStream struct {
	*turnStream

	pmu          sync.Mutex
	parked       bool
	parks        int
	byReadLoop   bool // a Park was called from turnLoop
	lastReadyNil bool
}

func (s *parkingStream) Park(ready func()) (parked, retry bool) {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	fromLoop := false
	for {
		f, more := frames.Next()
		if strings.HasSuffix(f.Function, ".turnLoop") {
			fromLoop = true
		}
		if !more {
			break
		}
	}
	s.pmu.Lock()
	defer s.pmu.Unlock()
	s.parked, s.parks = true, s.parks+1
	s.byReadLoop = s.byReadLoop || fromLoop
	s.lastReadyNil = ready == nil
	return true, false
}

func (s *parkingStream) Unpark() bool {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	was := s.parked
	s.parked = false
	return was
}

// A connection that goes idle parks its stream from the idle timer: no
// read goroutine is started only to park, and none runs while parked.
func TestTurnsIdleParksWithoutAReadGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newMemStream(64)
		ps := &parkingStream{turnStream: newTurnStream(s)}
		c := NewConn(ps, Options{})
		defer c.Close()
		peer := &peer{t: t, s: s}
		for i := range 2 {
			done := callAsync(t.Context(), c, "m")
			peer.reply(peer.recvRequest(), `{}`)
			if err := <-done; err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
			time.Sleep(2 * idleTurnDelay) // the bubble's clock: idle
			synctest.Wait()
			var running bool
			c.update(func(st *inFlight) { running = st.bgRunning })
			ps.pmu.Lock()
			parked, parks, byLoop, nilReady := ps.parked, ps.parks, ps.byReadLoop, ps.lastReadyNil
			ps.pmu.Unlock()
			switch {
			case !parked || parks != i+1:
				t.Fatalf("after call %d: parked %v, %d parks, want parked after each call", i, parked, parks)
			case byLoop:
				t.Fatalf("after call %d: a read goroutine was started to park", i)
			case running:
				t.Fatalf("after call %d: the read goroutine runs while the stream is parked", i)
			case nilReady:
				t.Fatal("Park was given no wake-up")
			}
		}
	})
}

// A caller whose response the read goroutine delivered before the stream
// parked (the caller was slow to come back for it) does not unpark the
// stream only to leave the turn free: the idle connection stays parked,
// so the peer's next notification still wakes it.
func TestTurnsAnsweredCallerLeavesTheStreamParked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newMemStream(64)
		ps := &parkingStream{turnStream: newTurnStream(s)}
		c := NewConn(ps, Options{})
		defer c.Close()
		time.Sleep(2 * idleTurnDelay) // idle from the start: parked
		synctest.Wait()
		answered := &pendingCall{conn: c, signal: make(chan struct{}, 1), resp: &Response{}}
		if !c.readOwnResponse(t.Context(), answered) {
			t.Fatal("readOwnResponse gave up on a call that has its response")
		}
		time.Sleep(2 * idleTurnDelay)
		synctest.Wait()
		var turnBG, running bool
		c.update(func(st *inFlight) { turnBG, running = st.turnBG, st.bgRunning })
		ps.pmu.Lock()
		parked := ps.parked
		ps.pmu.Unlock()
		if !parked && !running {
			t.Fatalf("the turn is left free (turn with the read goroutine: %v), the stream not parked and nobody reading", turnBG)
		}
	})
}
