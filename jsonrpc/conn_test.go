package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func TestCallRoundTrip(t *testing.T) { run(t, testCallRoundTrip) }

func testCallRoundTrip(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		type res struct {
			raw json.RawMessage
			err error
		}
		done := make(chan res)
		go func() {
			raw, err := c.Call(context.Background(), "tools/call", map[string]any{"name": "echo"}, nil)
			done <- res{raw, err}
		}()
		req := p.recvRequest()
		if id, ok := req.ID.Int64(); !ok || id != 1 {
			t.Errorf("first request id = %s, want 1", req.ID)
		}
		if req.Method != "tools/call" || string(req.Params) != `{"name":"echo"}` {
			t.Errorf("request = %s", describe(req))
		}
		p.reply(req, `{"content":[]}`)
		r := <-done
		if r.err != nil || string(r.raw) != `{"content":[]}` {
			t.Fatalf("Call = %s, %v", r.raw, r.err)
		}
	})
}

func TestCallIDsAreMonotonicAndNeverReused(t *testing.T) {
	run(t, testCallIDsAreMonotonicAndNeverReused)
}

func testCallIDsAreMonotonicAndNeverReused(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{Timeout: time.Second})
		var want int64 = 1
		for i := range 6 {
			done := make(chan error)
			go func() {
				_, err := c.Call(context.Background(), "ping", nil, nil)
				done <- err
			}()
			req := p.recvRequest()
			if id, ok := req.ID.Int64(); !ok || id != want {
				t.Fatalf("call %d used id %s, want %d", i, req.ID, want)
			}
			want++
			if i%2 == 0 {
				p.reply(req, `{}`)
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				continue
			}
			// Let every other call time out: its id must not come back.
			if err := <-done; !errors.Is(err, ErrTimeout) {
				t.Fatalf("got %v, want a timeout", err)
			}
			if n := p.recvNotification(); n.Method != MethodCancelled {
				t.Fatalf("got %s, want the cancel notice", describe(n))
			}
		}
	})
}

func TestCallParamsErrors(t *testing.T) { run(t, testCallParamsErrors) }

func testCallParamsErrors(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := newTestConn(t, m, Options{})
		_, err := c.Call(context.Background(), "x", func() {}, nil)
		if err == nil || !strings.Contains(err.Error(), "encoding params of x") {
			t.Errorf("unencodable params: %v", err)
		}
		if err := c.Notify(context.Background(), "y", make(chan int)); err == nil || !strings.Contains(err.Error(), "encoding params of y") {
			t.Errorf("unencodable notification params: %v", err)
		}
	})
}

// TestConcurrentCallsOutOfOrder runs hundreds of calls at once and answers
// them in a random order: each caller must get its own answer.
func TestConcurrentCallsOutOfOrder(t *testing.T) { run(t, testConcurrentCallsOutOfOrder) }

func testConcurrentCallsOutOfOrder(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		const n = 300
		c, p := newTestConn(t, m, Options{})
		errs := make(chan error, n)
		for i := range n {
			go func() {
				raw, err := c.Call(context.Background(), "echo", map[string]int{"n": i}, nil)
				if err != nil {
					errs <- err
					return
				}
				var got struct{ N int }
				if err := json.Unmarshal(raw, &got); err != nil || got.N != i {
					errs <- fmt.Errorf("call %d got %s", i, raw)
					return
				}
				errs <- nil
			}()
		}
		reqs := make([]*Request, 0, n)
		ids := map[ID]bool{}
		for range n {
			r := p.recvRequest()
			if ids[r.ID] {
				t.Fatalf("id %s used twice", r.ID)
			}
			ids[r.ID] = true
			reqs = append(reqs, r)
		}
		rand.Shuffle(len(reqs), func(i, j int) { reqs[i], reqs[j] = reqs[j], reqs[i] })
		for _, r := range reqs {
			// Echo the caller's number back, so a mix-up shows.
			p.reply(r, strings.Replace(string(r.Params), `"n"`, `"N"`, 1))
		}
		for range n {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	})
}

func TestCallErrorResponse(t *testing.T) { run(t, testCallErrorResponse) }

func testCallErrorResponse(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, nil)
			done <- err
		}()
		req := p.recvRequest()
		p.send(&Response{ID: req.ID, Error: &Error{Code: CodeInvalidParams, Message: "Unknown tool", Data: json.RawMessage(`{"tool":"x"}`)}})
		err := <-done
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidParams || e.Message != "Unknown tool" || string(e.Data) != `{"tool":"x"}` {
			t.Fatalf("got %v, want the peer's error object", err)
		}
	})
}

func TestCallerCancel(t *testing.T) { run(t, testCallerCancel) }

func testCallerCancel(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		c, p := newTestConn(t, m, Options{ErrorHook: hooks.hook})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() {
			_, err := c.Call(ctx, "tools/call", nil, nil)
			done <- err
		}()
		req := p.recvRequest()
		cancel()
		err := <-done
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("got %v, want a cancellation that is not a timeout", err)
		}
		if want := "tools/call (id 1) canceled by caller"; !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
		n := p.recvNotification()
		if n.Method != MethodCancelled || string(n.Params) != `{"requestId":1,"reason":"canceled by caller"}` {
			t.Fatalf("cancel notice = %s", describe(n))
		}
		// The late answer is dropped quietly and the connection goes on.
		p.reply(req, `{}`)
		go func() {
			_, err := c.Call(context.Background(), "ping", nil, nil)
			done <- err
		}()
		p.reply(p.recvRequest(), `{}`)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if errs := hooks.all(); len(errs) != 0 {
			t.Errorf("the late response was reported: %v", errs)
		}
	})
}

func TestCancelCauseIsKept(t *testing.T) { run(t, testCancelCauseIsKept) }

func testCancelCauseIsKept(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		why := errors.New("user pressed stop")
		ctx, cancel := context.WithCancelCause(context.Background())
		done := make(chan error)
		go func() {
			_, err := c.Call(ctx, "tools/call", nil, nil)
			done <- err
		}()
		p.recvRequest()
		cancel(why)
		err := <-done
		if !errors.Is(err, context.Canceled) || !errors.Is(err, why) || !strings.Contains(err.Error(), "user pressed stop") {
			t.Fatalf("got %v, want the cancellation and its cause", err)
		}
		p.recvNotification()
	})
}

func TestCallAlreadyCancelledSendsNothing(t *testing.T) { run(t, testCallAlreadyCancelledSendsNothing) }

func testCallAlreadyCancelledSendsNothing(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Call(ctx, "ping", nil, nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v", err)
		}
		synctest.Wait()
		if len(p.s.out) != 0 {
			t.Fatalf("%d messages written for a call cancelled before it started", len(p.s.out))
		}
	})
}

func TestTimeouts(t *testing.T) { run(t, testTimeouts) }

func testTimeouts(t *testing.T, m readMode) {
	tests := []struct {
		name    string
		conn    time.Duration
		call    time.Duration
		want    time.Duration
		wantMsg string
	}{
		{"default", 0, 0, DefaultTimeout, "tools/call (id 1) timed out after 30s"},
		{"connection", 3 * time.Second, 0, 3 * time.Second, "timed out after 3s"},
		{"call overrides connection", 3 * time.Second, 7 * time.Second, 7 * time.Second, "timed out after 7s"},
		{"call overrides disabled connection", NoTimeout, 2 * time.Second, 2 * time.Second, "timed out after 2s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, p := newTestConn(t, m, Options{Timeout: tt.conn})
				start := time.Now()
				done := make(chan error)
				go func() {
					_, err := c.Call(context.Background(), "tools/call", nil, &CallOptions{Timeout: tt.call})
					done <- err
				}()
				p.recvRequest()
				err := <-done
				if took := time.Since(start); took != tt.want {
					t.Errorf("call gave up after %s, want %s", took, tt.want)
				}
				// Our deadline, not the caller's: the caller's ctx did not end.
				if !errors.Is(err, ErrTimeout) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
					t.Fatalf("got %v, want ErrTimeout and not context.DeadlineExceeded", err)
				}
				if !strings.Contains(err.Error(), tt.wantMsg) {
					t.Errorf("error %q does not say %q", err, tt.wantMsg)
				}
				// The request it ended, for callers that word errors
				// for people (the CLI names it).
				var req interface{ Method() string }
				if !errors.As(err, &req) || req.Method() != "tools/call" {
					t.Errorf("error %v does not give its request's method", err)
				}
				n := p.recvNotification()
				wantParams := fmt.Sprintf(`{"requestId":1,"reason":"timed out after %s"}`, tt.want)
				if n.Method != MethodCancelled || string(n.Params) != wantParams {
					t.Errorf("cancel notice = %s, want params %s", describe(n), wantParams)
				}
			})
		})
	}
}

func TestNoTimeout(t *testing.T) { run(t, testNoTimeout) }

func testNoTimeout(t *testing.T, m readMode) {
	for name, opts := range map[string]struct {
		conn Options
		call *CallOptions
	}{
		"connection": {Options{Timeout: NoTimeout}, nil},
		"call":       {Options{Timeout: time.Second}, &CallOptions{Timeout: NoTimeout}},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, p := newTestConn(t, m, opts.conn)
				done := make(chan error)
				go func() {
					_, err := c.Call(context.Background(), "slow", nil, opts.call)
					done <- err
				}()
				req := p.recvRequest()
				time.Sleep(48 * time.Hour) // fake time: nothing may expire
				p.reply(req, `{}`)
				if err := <-done; err != nil {
					t.Fatal(err)
				}
			})
		})
	}
}

func TestCallerDeadline(t *testing.T) { run(t, testCallerDeadline) }

func testCallerDeadline(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		done := make(chan error)
		go func() {
			_, err := c.Call(ctx, "tools/call", nil, nil)
			done <- err
		}()
		p.recvRequest()
		err := <-done
		if time.Since(start) != 2*time.Second {
			t.Errorf("gave up after %s, want the caller's 2s", time.Since(start))
		}
		// The caller's deadline, not ours: ErrTimeout must not match.
		if errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.DeadlineExceeded and not ErrTimeout", err)
		}
		if !strings.Contains(err.Error(), "caller's context deadline") {
			t.Errorf("error %q does not blame the caller's deadline", err)
		}
		n := p.recvNotification()
		if string(n.Params) != `{"requestId":1,"reason":"the caller's deadline passed"}` {
			t.Errorf("cancel notice = %s", describe(n))
		}
	})
}

// TestDeadlineCoversTheWrite: a stream that does not take the request
// cannot hold the call past its deadline.
func TestDeadlineCoversTheWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newMemStream(0) // unbuffered: nobody reads, Write blocks
		c := NewConn(s, Options{Timeout: 5 * time.Second, CancelTimeout: time.Second})
		defer c.Close()
		start := time.Now()
		_, err := c.Call(context.Background(), "tools/call", nil, nil)
		if !errors.Is(err, ErrTimeout) || time.Since(start) != 5*time.Second {
			t.Fatalf("got %v after %s, want a timeout after 5s", err, time.Since(start))
		}
		// The cancel notice cannot be written either; it gives up on
		// its own, bounded by CancelTimeout, without hanging anyone.
		time.Sleep(2 * time.Second)
		synctest.Wait()
	})
}

func TestCancelNoticeIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		s := newMemStream(0)
		c := NewConn(s, Options{CancelTimeout: 3 * time.Second, ErrorHook: hooks.hook})
		defer c.Close()
		p := &peer{t: t, s: s}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() {
			_, err := c.Call(ctx, "tools/call", nil, nil)
			done <- err
		}()
		p.recvRequest()
		start := time.Now()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
		if time.Since(start) != 0 {
			t.Errorf("the caller waited %s for the cancel notice", time.Since(start))
		}
		// Nobody reads the stream: the notice is abandoned after 3s.
		err := hooks.next()
		if time.Since(start) != 3*time.Second || !strings.Contains(err.Error(), "could not send notifications/cancelled for tools/call (id 1)") {
			t.Fatalf("after %s: %v", time.Since(start), err)
		}
	})
}

func TestNoCancelNoticeForInitialize(t *testing.T) { run(t, testNoCancelNoticeForInitialize) }

func testNoCancelNoticeForInitialize(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{Timeout: time.Second})
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "initialize", nil, nil)
			done <- err
		}()
		p.recvRequest()
		if err := <-done; !errors.Is(err, ErrTimeout) {
			t.Fatal(err)
		}
		synctest.Wait()
		if len(p.s.out) != 0 {
			t.Fatalf("a cancel notice was sent for initialize: %s", <-p.s.out)
		}
	})
}

func TestNotify(t *testing.T) { run(t, testNotify) }

func testNotify(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		if err := c.Notify(context.Background(), "notifications/initialized", nil); err != nil {
			t.Fatal(err)
		}
		if n := p.recvNotification(); n.Method != "notifications/initialized" || n.Params != nil {
			t.Fatalf("got %s", describe(n))
		}
		if err := c.Notify(context.Background(), "notifications/roots/list_changed", map[string]int{"a": 1}); err != nil {
			t.Fatal(err)
		}
		if n := p.recvNotification(); string(n.Params) != `{"a":1}` {
			t.Fatalf("got %s", describe(n))
		}
		c.Close()
		if err := c.Notify(context.Background(), "x", nil); !errors.Is(err, ErrClosed) {
			t.Fatalf("Notify after Close: %v", err)
		}
	})
}

func TestWriteFailure(t *testing.T) { run(t, testWriteFailure) }

func testWriteFailure(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		broken := errors.New("pipe is broken")
		p.s.writeErr.Store(&broken)
		_, err := c.Call(context.Background(), "tools/list", nil, nil)
		if !errors.Is(err, broken) || !strings.Contains(err.Error(), "sending tools/list (id 1)") {
			t.Fatalf("got %v", err)
		}
		if err := c.Notify(context.Background(), "n", nil); !errors.Is(err, broken) {
			t.Fatalf("Notify: %v", err)
		}
	})
}

func TestHandlers(t *testing.T) { run(t, testHandlers) }

func testHandlers(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			switch req.Method {
			case "ping":
				return nil, nil
			case "echo":
				return req.Params, nil
			case "typed":
				return map[string]string{"ok": "yes"}, nil
			case "fail":
				return nil, errors.New("disk full")
			case "invalid":
				return nil, fmt.Errorf("checking: %w", NewError(CodeInvalidParams, "bad cursor"))
			case "panic":
				panic("oops")
			}
			return nil, ErrMethodNotFound
		}
		_, p := newTestConn(t, m, Options{Handler: handler, ErrorHook: hooks.hook})
		tests := []struct {
			method, params string
			want           string
		}{
			{"ping", ``, `{"jsonrpc":"2.0","id":1,"result":{}}`},
			{"echo", `{"a":[1,2]}`, `{"jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}`},
			{"typed", ``, `{"jsonrpc":"2.0","id":1,"result":{"ok":"yes"}}`},
			{"fail", ``, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"disk full"}}`},
			{"invalid", ``, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad cursor"}}`},
			{"nope", ``, `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found: nope"}}`},
			{"panic", ``, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal error: the handler failed"}}`},
		}
		for _, tt := range tests {
			p.send(&Request{ID: Int64ID(1), Method: tt.method, Params: json.RawMessage(tt.params)})
			if got := describe(p.recvResponse()); got != tt.want {
				t.Errorf("%s: got %s, want %s", tt.method, got, tt.want)
			}
		}
		err := hooks.next()
		if !strings.Contains(err.Error(), "handler for panic (id 1) panicked: oops") {
			t.Errorf("panic report = %v", err)
		}
	})
}

func TestNilHandlerAnswersMethodNotFound(t *testing.T) { run(t, testNilHandlerAnswersMethodNotFound) }

func testNilHandlerAnswersMethodNotFound(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		_, p := newTestConn(t, m, Options{})
		p.send(&Request{ID: StringID("s-1"), Method: "sampling/createMessage"})
		r := p.recvResponse()
		if r.ID != StringID("s-1") || r.Error == nil || r.Error.Code != CodeMethodNotFound {
			t.Fatalf("got %s", describe(r))
		}
	})
}

// TestHandlersRunConcurrently: the first handler only returns once the
// second has started, which needs them to run at the same time.
func TestHandlersRunConcurrently(t *testing.T) { run(t, testHandlersRunConcurrently) }

func testHandlersRunConcurrently(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		secondStarted := make(chan struct{})
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			if req.Method == "first" {
				<-secondStarted
				return "first", nil
			}
			close(secondStarted)
			return "second", nil
		}
		_, p := newTestConn(t, m, Options{Handler: handler})
		p.send(&Request{ID: Int64ID(1), Method: "first"})
		p.send(&Request{ID: Int64ID(2), Method: "second"})
		got := map[string]bool{}
		for range 2 {
			got[describe(p.recvResponse())] = true
		}
		for _, want := range []string{`{"jsonrpc":"2.0","id":1,"result":"first"}`, `{"jsonrpc":"2.0","id":2,"result":"second"}`} {
			if !got[want] {
				t.Errorf("missing %s in %v", want, got)
			}
		}
	})
}

func TestPeerCancelsRequest(t *testing.T) { run(t, testPeerCancelsRequest) }

func testPeerCancelsRequest(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		started := make(chan struct{})
		stopped := make(chan error, 1)
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			if req.Method == "ping" {
				return nil, nil
			}
			close(started)
			<-ctx.Done()
			stopped <- ctx.Err()
			return "too late", nil
		}
		hooks := newHookLog()
		_, p := newTestConn(t, m, Options{Handler: handler, ErrorHook: hooks.hook})
		p.send(&Request{ID: StringID("req-7"), Method: "sampling/createMessage"})
		<-started
		// Unknown ids are ignored.
		p.send(&Notification{Method: MethodCancelled, Params: json.RawMessage(`{"requestId":"other"}`)})
		p.send(&Notification{Method: MethodCancelled, Params: json.RawMessage(`{"requestId":7}`)})
		synctest.Wait()
		select {
		case err := <-stopped:
			t.Fatalf("handler cancelled by a notice for another id: %v", err)
		default:
		}
		p.send(&Notification{Method: MethodCancelled, Params: json.RawMessage(`{"requestId":"req-7","reason":"user closed the dialog"}`)})
		if err := <-stopped; !errors.Is(err, context.Canceled) {
			t.Fatalf("handler ctx ended with %v", err)
		}
		// No response for the cancelled request: the next frame is the
		// answer to a later ping.
		p.send(&Request{ID: Int64ID(8), Method: "ping"})
		if r := p.recvResponse(); r.ID != Int64ID(8) {
			t.Fatalf("got %s, want only the ping's answer", describe(r))
		}
		if errs := hooks.all(); len(errs) != 0 {
			t.Errorf("unexpected reports: %v", errs)
		}
	})
}

func TestHandlerCallsBackIntoConn(t *testing.T) { run(t, testHandlerCallsBackIntoConn) }

func testHandlerCallsBackIntoConn(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			// A server request whose handler asks the peer first.
			raw, err := c.Call(ctx, "roots/list", nil, nil)
			if err != nil {
				return nil, err
			}
			if err := c.Notify(ctx, "notifications/message", nil); err != nil {
				return nil, err
			}
			return raw, nil
		}
		_, p := newTestConn(t, m, Options{Handler: handler})
		p.send(&Request{ID: Int64ID(100), Method: "outer"})
		inner := p.recvRequest()
		if inner.Method != "roots/list" {
			t.Fatalf("got %s", describe(inner))
		}
		p.reply(inner, `{"roots":[]}`)
		if n := p.recvNotification(); n.Method != "notifications/message" {
			t.Fatalf("got %s", describe(n))
		}
		if got := describe(p.recvResponse()); got != `{"jsonrpc":"2.0","id":100,"result":{"roots":[]}}` {
			t.Fatalf("got %s", got)
		}
	})
}

func TestDuplicateRequestIDWhileHandling(t *testing.T) { run(t, testDuplicateRequestIDWhileHandling) }

func testDuplicateRequestIDWhileHandling(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			<-release
			return nil, nil
		}
		hooks := newHookLog()
		_, p := newTestConn(t, m, Options{Handler: handler, ErrorHook: hooks.hook})
		p.send(&Request{ID: Int64ID(1), Method: "a"})
		p.send(&Request{ID: Int64ID(1), Method: "b"})
		if err := hooks.next(); !strings.Contains(err.Error(), "b request id 1 while a request with that id is still being handled") {
			t.Fatalf("report = %v", err)
		}
		close(release)
		if r := p.recvResponse(); r.ID != Int64ID(1) {
			t.Fatal(describe(r))
		}
	})
}

func TestSubscribers(t *testing.T) { run(t, testSubscribers) }

func testSubscribers(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		var mu sync.Mutex
		var log []string
		record := func(who string) func(*Notification) {
			return func(n *Notification) {
				mu.Lock()
				defer mu.Unlock()
				log = append(log, who+":"+n.Method+string(n.Params))
			}
		}
		c.Subscribe("", record("all"))
		unsubA := c.Subscribe("a", record("a1"))
		c.Subscribe("a", record("a2"))
		c.Subscribe("b", record("b"))
		c.Subscribe("a", nil)()
		for i := range 3 {
			p.send(&Notification{Method: "a", Params: json.RawMessage(fmt.Sprint(`[`, i, `]`))})
			p.send(&Notification{Method: "b"})
		}
		p.send(&Notification{Method: "c"})
		synctest.Wait()
		want := []string{}
		for i := range 3 {
			want = append(want, fmt.Sprintf("a1:a[%d]", i), fmt.Sprintf("a2:a[%d]", i), fmt.Sprintf("all:a[%d]", i), "b:b", "all:b")
		}
		want = append(want, "all:c")
		mu.Lock()
		if strings.Join(log, " ") != strings.Join(want, " ") {
			t.Errorf("deliveries\n got %v\nwant %v", log, want)
		}
		log = nil
		mu.Unlock()

		unsubA()
		unsubA() // idempotent
		p.send(&Notification{Method: "a"})
		synctest.Wait()
		mu.Lock()
		if strings.Join(log, " ") != "a2:a all:a" {
			t.Errorf("after unsubscribe got %v", log)
		}
		mu.Unlock()
	})
}

// TestSlowSubscriberDoesNotBlockResponses: while a subscriber is stuck,
// responses still reach their calls and notifications pile up in order.
func TestSlowSubscriberDoesNotBlockResponses(t *testing.T) {
	run(t, testSlowSubscriberDoesNotBlockResponses)
}

func testSlowSubscriberDoesNotBlockResponses(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		release := make(chan struct{})
		got := make(chan string, 1000)
		c.Subscribe("log", func(n *Notification) {
			<-release
			got <- string(n.Params)
		})
		for i := range 500 {
			p.send(&Notification{Method: "log", Params: json.RawMessage(fmt.Sprint("[", i, "]"))})
		}
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "ping", nil, nil)
			done <- err
		}()
		p.reply(p.recvRequest(), `{}`)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		close(release)
		for i := range 500 {
			if n := <-got; n != fmt.Sprint("[", i, "]") {
				t.Fatalf("delivery %d was %s", i, n)
			}
		}
	})
}

func TestSubscriberCallsBackAndPanics(t *testing.T) { run(t, testSubscriberCallsBackAndPanics) }

func testSubscriberCallsBackAndPanics(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		c, p := newTestConn(t, m, Options{ErrorHook: hooks.hook})
		results := make(chan error, 1)
		c.Subscribe("notifications/tools/list_changed", func(n *Notification) {
			_, err := c.Call(context.Background(), "tools/list", nil, nil)
			results <- err
		})
		c.Subscribe("boom", func(*Notification) { panic("subscriber bug") })
		p.send(&Notification{Method: "boom"})
		if err := hooks.next(); !strings.Contains(err.Error(), "subscriber for boom panicked on boom: subscriber bug") {
			t.Fatalf("report = %v", err)
		}
		p.send(&Notification{Method: "notifications/tools/list_changed"})
		p.reply(p.recvRequest(), `{"tools":[]}`)
		if err := <-results; err != nil {
			t.Fatal(err)
		}
	})
}

// TestBadInputIsReportedAndSurvived feeds the read loop every kind of bad
// input; each must reach the hook with context, and calls must still work.
func TestBadInputIsReportedAndSurvived(t *testing.T) { run(t, testBadInputIsReportedAndSurvived) }

func testBadInputIsReportedAndSurvived(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		c, p := newTestConn(t, m, Options{ErrorHook: hooks.hook})
		call := func() (chan error, *Request) {
			done := make(chan error, 1)
			go func() {
				_, err := c.Call(context.Background(), "tools/list", nil, nil)
				done <- err
			}()
			return done, p.recvRequest()
		}
		done, req := call() // id 1
		steps := []struct {
			name   string
			inject func()
			want   []string
		}{
			{"garbage frame", func() { p.sendRaw(`{"jsonrpc":"2.0","id":1,"result"`) }, []string{"unreadable message", "malformed JSON", `frame starts "{\"jsonrpc\"`}},
			{"decode error from the transport", func() { p.fail(&DecodeError{Reason: "line too long", Excerpt: "xyz"}) }, []string{"line too long", "xyz"}},
			{"unknown id", func() { p.sendRaw(`{"jsonrpc":"2.0","id":99,"result":{"x":1}}`) }, []string{"unknown id 99", `"result":{"x":1}`}},
			{"string id", func() { p.sendRaw(`{"jsonrpc":"2.0","id":"1","result":{}}`) }, []string{`unknown id "1"`}},
			{"no id", func() { p.sendRaw(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`) }, []string{"without an id", "Parse error"}},
			{"bad progress", func() { p.sendRaw(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":"x"}}`) }, []string{"unreadable notifications/progress", `"progress":"x"`}},
			{"bad cancel", func() { p.sendRaw(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":null}}`) }, []string{"notifications/cancelled with a bad requestId null"}},
		}
		for _, s := range steps {
			s.inject()
			err := hooks.next()
			for _, w := range s.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: report %q lacks %q", s.name, err, w)
				}
			}
		}
		p.reply(req, `{}`)
		if err := <-done; err != nil {
			t.Fatalf("call after bad input: %v", err)
		}
		p.reply(req, `{"again":true}`)
		if err := hooks.next(); !strings.Contains(err.Error(), "duplicate response to id 1") || !strings.Contains(err.Error(), `"again":true`) {
			t.Errorf("duplicate report = %v", err)
		}
		done, req = call()
		p.reply(req, `{}`)
		if err := <-done; err != nil {
			t.Fatalf("call after the duplicate: %v", err)
		}
		if c.Err() != nil {
			t.Fatalf("connection ended: %v", c.Err())
		}
	})
}

// TestInvalidResponseFailsItsCall: a frame that can only be the response
// to a pending call (its id, no method) but is not valid JSON-RPC fails
// that call at once, saying what is wrong, rather than leaving it to its
// deadline, and is reported as before; other calls and bad frames with no
// call are unaffected.
func TestInvalidResponseFailsItsCall(t *testing.T) { run(t, testInvalidResponseFailsItsCall) }

func testInvalidResponseFailsItsCall(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		c, p := newTestConn(t, m, Options{ErrorHook: hooks.hook})
		call := func(method string) (chan error, *Request) {
			done := make(chan error, 1)
			go func() {
				_, err := c.Call(context.Background(), method, nil, nil)
				done <- err
			}()
			return done, p.recvRequest()
		}
		for _, tc := range []struct{ frame, reason string }{
			{`{"id":%s,"result":{}}`, `missing "jsonrpc" member`},
			{`{"jsonrpc":"2.0","id":%s,"error":{"code":"E1","message":"no"}}`, `"error.code" is "E1"`},
			{`{"jsonrpc":"2.0","id":%s,"result":{},"error":{"code":1,"message":"m"}}`, `both "result" and "error"`},
		} {
			done, req := call("tools/list")
			p.sendRaw(fmt.Sprintf(tc.frame, req.ID))
			err := <-done
			var rpcErr *Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != CodeParseError {
				t.Fatalf("%s: call error = %v, want a parse error", tc.frame, err)
			}
			for _, want := range []string{"tools/list (id " + req.ID.String() + ")", tc.reason} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: error %q lacks %q", tc.frame, err, want)
				}
			}
			// The peer's protocol error is reported too.
			if err := hooks.next(); !strings.Contains(err.Error(), "unreadable message") || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("%s: report = %v", tc.frame, err)
			}
		}
		// A bad frame for no pending call is only reported.
		p.sendRaw(`{"id":77,"result":{}}`)
		if err := hooks.next(); !strings.Contains(err.Error(), "unreadable message") {
			t.Fatalf("report = %v", err)
		}
		done, req := call("ping")
		p.reply(req, `{}`)
		if err := <-done; err != nil {
			t.Fatalf("call after bad responses: %v", err)
		}
	})
}

func TestStreamEndFailsPendingCalls(t *testing.T) { run(t, testStreamEndFailsPendingCalls) }

func testStreamEndFailsPendingCalls(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		const n = 5
		errs := make(chan error, n)
		for range n {
			go func() {
				_, err := c.Call(context.Background(), "tools/call", nil, nil)
				errs <- err
			}()
		}
		for range n {
			p.recvRequest()
		}
		cause := fmt.Errorf("server exited with status 1: %w", io.ErrUnexpectedEOF)
		start := time.Now()
		p.fail(cause)
		for range n {
			err := <-errs
			if !errors.Is(err, ErrClosed) || !errors.Is(err, io.ErrUnexpectedEOF) || !strings.Contains(err.Error(), "server exited with status 1") {
				t.Errorf("pending call got %v, want ErrClosed and the cause", err)
			}
		}
		if time.Since(start) != 0 {
			t.Errorf("pending calls failed after %s, want at once", time.Since(start))
		}
		<-c.Done()
		if err := c.Err(); !errors.Is(err, ErrClosed) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("Err() = %v", err)
		}
		if _, err := c.Call(context.Background(), "ping", nil, nil); !errors.Is(err, ErrClosed) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Fatalf("Call after the end: %v", err)
		}
		synctest.Wait()
		if p.s.closeCalls.Load() != 1 {
			t.Errorf("stream closed %d times, want once by the engine", p.s.closeCalls.Load())
		}
	})
}

func TestClose(t *testing.T) { run(t, testClose) }

func testClose(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		handlerStarted := make(chan struct{})
		handlerDone := make(chan error, 1)
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			close(handlerStarted)
			<-ctx.Done()
			handlerDone <- ctx.Err()
			return nil, nil
		}
		c, p := newTestConn(t, m, Options{Handler: handler})
		if c.Err() != nil {
			t.Fatalf("Err() on an open connection = %v", c.Err())
		}
		select {
		case <-c.Done():
			t.Fatal("Done closed on an open connection")
		default:
		}
		p.send(&Request{ID: Int64ID(1), Method: "sampling/createMessage"})
		callErr := make(chan error, 1)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, nil)
			callErr <- err
		}()
		p.recvRequest()
		<-handlerStarted

		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				if err := c.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
		}
		wg.Wait()
		if err := <-callErr; !errors.Is(err, ErrClosed) {
			t.Errorf("pending call got %v", err)
		}
		if err := <-handlerDone; !errors.Is(err, context.Canceled) {
			t.Errorf("handler ctx: %v", err)
		}
		<-c.Done()
		if !errors.Is(c.Err(), ErrClosed) {
			t.Errorf("Err() = %v", c.Err())
		}
		if p.s.closeCalls.Load() != 1 {
			t.Errorf("stream closed %d times", p.s.closeCalls.Load())
		}
		if err := c.Close(); err != nil {
			t.Errorf("Close again: %v", err)
		}
		if _, err := c.Call(context.Background(), "ping", nil, nil); !errors.Is(err, ErrClosed) {
			t.Errorf("Call after Close: %v", err)
		}
		// The pending call is cancelled; no response is sent for the
		// handler cut short by Close.
		if n := p.recvNotification(); n.Method != MethodCancelled || string(n.Params) != `{"requestId":1,"reason":"the client closed the connection"}` {
			t.Errorf("wrote %s at Close, want the pending call's cancel", describe(n))
		}
		select {
		case b := <-p.s.out:
			t.Errorf("wrote %s after Close", b)
		default:
		}
	})
}

// Close does not wait for a handler that ignores its context: the
// handler is the caller's code, and its response is never sent.
func TestCloseDoesNotWaitForHandlers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			<-release
			return "late", nil
		}
		s := newMemStream(8)
		c := NewConn(s, Options{Handler: handler})
		p := &peer{t: t, s: s}
		p.send(&Request{ID: Int64ID(1), Method: "stuck"})
		synctest.Wait()
		start := time.Now()
		if err := c.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("Close took %s, want no wait for the handler", d)
		}
		close(release)
		synctest.Wait()
		select {
		case b := <-s.out:
			t.Errorf("a response was sent after Close: %s", b)
		default:
		}
	})
}

// TestCloseFromHandler: Close from a handler must not deadlock when run
// in its own goroutine, as documented.
func TestCloseFromHandler(t *testing.T) { run(t, testCloseFromHandler) }

func testCloseFromHandler(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		closed := make(chan error, 1)
		handler := func(ctx context.Context, c *Conn, req *Request) (any, error) {
			go func() { closed <- c.Close() }()
			return nil, nil
		}
		c, p := newTestConn(t, m, Options{Handler: handler})
		p.send(&Request{ID: Int64ID(1), Method: "shutdown"})
		if err := <-closed; err != nil {
			t.Fatal(err)
		}
		<-c.Done()
	})
}

// nilStream returns typed nil messages, then nothing at all: contract
// breaches that must neither panic nor spin.
type nilStream struct {
	reads  chan Message
	closed chan struct{}
}

func (s *nilStream) Read(ctx context.Context) (Message, error) {
	select {
	case m := <-s.reads:
		return m, nil
	case <-s.closed:
		return nil, errMemClosed
	}
}
func (s *nilStream) Write(context.Context, Message) error { return nil }
func (s *nilStream) Close() error                         { close(s.closed); return nil }

func TestStreamContractBreaches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		s := &nilStream{reads: make(chan Message), closed: make(chan struct{})}
		c := NewConn(s, Options{ErrorHook: hooks.hook})
		for _, m := range []Message{(*Request)(nil), (*Response)(nil), (*Notification)(nil)} {
			s.reads <- m
			if err := hooks.next(); !strings.Contains(err.Error(), fmt.Sprintf("returned a nil %T", m)) {
				t.Errorf("report = %v", err)
			}
		}
		s.reads <- nil
		<-c.Done()
		if err := c.Err(); !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "neither a message nor an error") {
			t.Fatalf("Err() = %v", err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	})
}

func TestCloseUnblocksACallStuckInWrite(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newMemStream(0) // nobody reads: Write blocks
		c := NewConn(s, Options{Timeout: NoTimeout})
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/call", nil, nil)
			done <- err
		}()
		synctest.Wait()
		c.Close()
		if err := <-done; !errors.Is(err, ErrClosed) || !strings.Contains(err.Error(), "tools/call (id 1)") {
			t.Fatalf("got %v, want ErrClosed naming the call", err)
		}
	})
}

func TestResponseWriteFailureIsReported(t *testing.T) { run(t, testResponseWriteFailureIsReported) }

func testResponseWriteFailureIsReported(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		hooks := newHookLog()
		_, p := newTestConn(t, m, Options{ErrorHook: hooks.hook})
		broken := errors.New("pipe is broken")
		p.s.writeErr.Store(&broken)
		p.send(&Request{ID: Int64ID(3), Method: "roots/list"})
		if err := hooks.next(); !errors.Is(err, broken) || !strings.Contains(err.Error(), "could not send the response to roots/list (id 3)") {
			t.Fatalf("report = %v", err)
		}
	})
}

// TestGiveUpPrefersAnArrivedResponse: when the response lands just as the
// caller gives up, the caller gets the response and nothing is cancelled.
func TestGiveUpPrefersAnArrivedResponse(t *testing.T) { run(t, testGiveUpPrefersAnArrivedResponse) }

func testGiveUpPrefersAnArrivedResponse(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		pc := &pendingCall{id: 1, method: "m", signal: make(chan struct{}, 1)}
		c.update(func(s *inFlight) { s.calls.put(1, pc) })
		c.update(func(s *inFlight) {
			s.calls.del(1)
			pc.finishLocked(&Response{ID: Int64ID(1), Result: json.RawMessage(`{"ok":1}`)}, nil)
		})
		raw, err := c.giveUp(pc, errors.New("too late"))
		if err != nil || string(raw) != `{"ok":1}` {
			t.Fatalf("giveUp = %s, %v", raw, err)
		}
		synctest.Wait()
		if len(p.s.out) != 0 {
			t.Fatal("a cancel notice was sent for an answered call")
		}
	})
}

func TestAbandonedIDsAreBounded(t *testing.T) {
	var a abandonedIDs
	for id := int64(1); id <= 3*abandonedLimit; id++ {
		a.add(id)
		if id%2 == 0 {
			a.take(id) // the late answer came
		}
		if len(a.set) > abandonedLimit || len(a.order) > 2*abandonedLimit+1 {
			t.Fatalf("after %d ids: %d remembered, %d in order", id, len(a.set), len(a.order))
		}
	}
	if a.take(1) {
		t.Error("the oldest id was not forgotten")
	}
	if !a.take(3*abandonedLimit - 1) {
		t.Error("a recent id was forgotten")
	}
	if a.take(3*abandonedLimit - 1) {
		t.Error("an id was taken twice")
	}
}

// OnStart learns the request's id before the request goes out.
func TestCallOnStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, byRead, Options{})
		started := make(chan ID, 1)
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "subscriptions/listen", nil, &CallOptions{OnStart: func(id ID) { started <- id }})
			done <- err
		}()
		req := p.recvRequest()
		select {
		case id := <-started:
			if id != req.ID {
				t.Errorf("OnStart got %s, the request went out as %s", id, req.ID)
			}
		default:
			t.Fatal("OnStart was not called before the request was written")
		}
		p.reply(req, `{}`)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	})
}
