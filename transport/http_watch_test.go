package transport

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// partsCtx is a context like the one jsonrpc writes a call's request
// with: its parent and the call's deadline, a timer made only when Done is
// asked for. It counts those asks.
type partsCtx struct {
	parent   context.Context
	deadline time.Time
	asked    atomic.Int32

	once sync.Once
	real context.Context
	stop context.CancelFunc
}

func (c *partsCtx) WriteParts() (context.Context, time.Time) { return c.parent, c.deadline }
func (c *partsCtx) Deadline() (time.Time, bool)              { return c.deadline, true }
func (c *partsCtx) Value(key any) any                        { return c.parent.Value(key) }

func (c *partsCtx) Done() <-chan struct{} {
	c.asked.Add(1)
	c.once.Do(func() { c.real, c.stop = context.WithDeadline(c.parent, c.deadline) })
	return c.real.Done()
}

func (c *partsCtx) Err() error {
	if err := c.parent.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// notAsked fails t if Done was asked for.
func (c *partsCtx) notAsked(t *testing.T) {
	t.Helper()
	if n := c.asked.Load(); n != 0 {
		c.stop()
		t.Errorf("the write context's Done was asked for %d times", n)
	}
}

// stallingSession is a stream, initialized, to a stallingServer.
func stallingSession(t *testing.T) (s jsonrpc.Stream, arrived, gone chan struct{}) {
	srv, arrived, gone := stallingServer(t)
	s = httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
	streamRoundTrip(t, s, 1, methodInitialize)
	return s, arrived, gone
}

// stallingServer holds every tools/call until the client gives it up,
// telling arrived when one came and gone when the client went away, and
// answers other requests at once.
func stallingServer(t *testing.T) (srv *httptest.Server, arrived, gone chan struct{}) {
	arrived, gone = make(chan struct{}, 1), make(chan struct{}, 1)
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, _ := jsonrpc.DecodeMessage(body)
		if req, ok := m.(*jsonrpc.Request); ok && req.Method != "tools/call" {
			out, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: []byte(`{}`)})
			w.Header().Set("Content-Type", "application/json")
			w.Write(out)
			return
		}
		arrived <- struct{}{}
		<-r.Context().Done()
		gone <- struct{}{}
	}))
	t.Cleanup(srv.Close)
	return srv, arrived, gone
}

// A Write watches the parts of jsonrpc's write context rather than its
// Done, which would cost a timer and a context per call: the POST is
// stopped at the call's deadline, and when the caller's ctx is cancelled,
// and Done is never asked for.
func TestHTTPWriteWatchesContextParts(t *testing.T) {
	t.Run("answered", func(t *testing.T) {
		srv := echoMCPServer(t, false, nil)
		s := httpConnect(t, &StreamableHTTP{URL: srv.URL, DisableListener: true})
		streamRoundTrip(t, s, 1, methodInitialize)
		parent, cancel := context.WithCancel(context.Background())
		defer cancel()
		ctx := &partsCtx{parent: parent, deadline: time.Now().Add(time.Hour)}
		if err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/list"}); err != nil {
			t.Fatalf("Write: %v", err)
		}
		if m, err := s.Read(context.Background()); err != nil {
			t.Fatalf("Read: %v", err)
		} else if r, ok := m.(*jsonrpc.Response); !ok || r.ID != jsonrpc.Int64ID(2) {
			t.Fatalf("read %#v, want the response to 2", m)
		}
		ctx.notAsked(t)
	})
	t.Run("deadline", func(t *testing.T) {
		s, arrived, gone := stallingSession(t)
		ctx := &partsCtx{parent: context.Background(), deadline: time.Now().Add(50 * time.Millisecond)}
		err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/call"})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Write past the deadline: %v, want context.DeadlineExceeded", err)
		}
		<-arrived
		<-gone
		ctx.notAsked(t)
	})
	t.Run("cancelled", func(t *testing.T) {
		s, arrived, gone := stallingSession(t)
		parent, cancel := context.WithCancel(context.Background())
		ctx := &partsCtx{parent: parent, deadline: time.Now().Add(time.Hour)}
		go func() {
			<-arrived
			cancel()
		}()
		err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/call"})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Write with its ctx cancelled: %v, want context.Canceled", err)
		}
		<-gone
		ctx.notAsked(t)
		// The stopped call is not reused: the next Write is answered.
		streamRoundTrip(t, s, 3, "tools/list")
	})
}

// partsSeen passes a stream's writes on, noting whether their contexts
// tell their parts (see writeParts).
type partsSeen struct {
	jsonrpc.Stream
	requests, withParts atomic.Int32
}

func (p *partsSeen) Write(ctx context.Context, m jsonrpc.Message) error {
	if _, ok := m.(*jsonrpc.Request); ok {
		p.requests.Add(1)
		if _, ok := ctx.(writeParts); ok {
			p.withParts.Add(1)
		}
	}
	return p.Stream.Write(ctx, m)
}

// The context jsonrpc writes a call's request with is one whose parts the
// transport can watch.
func TestJSONRPCWritesCallsWithParts(t *testing.T) {
	srv := echoMCPServer(t, false, nil)
	st, err := (&StreamableHTTP{URL: srv.URL, DisableListener: true}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	seen := &partsSeen{Stream: st}
	c := jsonrpc.NewConn(seen, jsonrpc.Options{})
	defer c.Close()
	for _, method := range []string{methodInitialize, "tools/list"} {
		if _, err := c.Call(context.Background(), method, nil, nil); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	if n, w := seen.requests.Load(), seen.withParts.Load(); n != 2 || w != n {
		t.Errorf("%d of %d requests were written with a context that tells its parts", w, n)
	}
}

// expiryCtx is a partsCtx that also offers the engine's expiry of the
// call (see expiryWatch); expire runs what the Write registered.
type expiryCtx struct {
	partsCtx
	mu      sync.Mutex
	f       func()
	expired atomic.Bool
}

func (c *expiryCtx) WatchExpiry(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.f = f
}

func (c *expiryCtx) UnwatchExpiry() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.f = nil
	return c.expired.Load()
}

func (c *expiryCtx) Err() error {
	if c.expired.Load() {
		return context.DeadlineExceeded
	}
	return c.partsCtx.Err()
}

// expire runs the registered callback, reporting whether there was one.
func (c *expiryCtx) expire() bool {
	c.mu.Lock()
	f := c.f
	c.mu.Unlock()
	if f == nil {
		return false
	}
	c.expired.Store(true)
	f()
	return true
}

// A Write whose context offers the engine's expiry of the call is stopped
// by it rather than by a timer at the first deadline, which progress may
// have moved since.
func TestHTTPWriteWatchesEngineExpiry(t *testing.T) {
	s, arrived, gone := stallingSession(t)
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctx := &expiryCtx{partsCtx: partsCtx{parent: parent, deadline: time.Now().Add(time.Hour)}}
	go func() {
		<-arrived
		if !ctx.expire() {
			t.Error("the Write registered nothing with WatchExpiry")
			cancel() // let the Write go
		}
	}()
	err := s.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/call"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Write after the expiry: %v, want context.DeadlineExceeded", err)
	}
	<-gone
	ctx.notAsked(t)
	// The stopped call is not reused: the next Write is answered.
	streamRoundTrip(t, s, 3, "tools/list")
}
