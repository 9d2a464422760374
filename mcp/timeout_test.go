package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// A server that never answers: the client's timeouts end the calls.
func TestTimeouts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newFakeServer(t)
		s.on(MethodToolsCall, func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		s.on(MethodPing, func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		c := connect(t, s, &ClientOptions{Timeout: 10 * time.Second})
		start := time.Now()
		_, err := c.CallTool(t.Context(), "slow", nil, &CallOptions{Timeout: 2 * time.Second})
		if !errors.Is(err, jsonrpc.ErrTimeout) || time.Since(start) != 2*time.Second {
			t.Errorf("CallTool with Timeout 2s: %v after %v", err, time.Since(start))
		}
		start = time.Now()
		err = c.Ping(t.Context())
		if !errors.Is(err, jsonrpc.ErrTimeout) || time.Since(start) != 10*time.Second {
			t.Errorf("Ping under the client's 10s Timeout: %v after %v", err, time.Since(start))
		}
		if errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Ping under the client's Timeout = %v: the caller's ctx did not end, so context.DeadlineExceeded must not match", err)
		}
		// The caller's own deadline, shorter than the client's: that is
		// the caller's, not ErrTimeout.
		ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
		defer cancel()
		err = c.Ping(ctx)
		if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, ErrTimeout) {
			t.Errorf("Ping under the caller's 3s deadline = %v, want context.DeadlineExceeded and not ErrTimeout", err)
		}
		c.Close()
		synctest.Wait()
	})
}

// Tool calls have their own policy: an idle deadline that progress
// pushes forward, under a cap; protocol requests keep the short one.
func TestToolCallPolicy(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newFakeServer(t)
		s.on(MethodPing, func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		s.on(MethodToolsCall, func(ctx context.Context, req *jsonrpc.Request) (any, error) {
			var p struct {
				Name string `json:"name"`
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			}
			if err := json.Unmarshal(req.Params, &p); err != nil {
				return nil, err
			}
			switch p.Name {
			case "long": // silent for 45 s, then done
				time.Sleep(45 * time.Second)
			case "idle": // never answers
				<-ctx.Done()
				return nil, ctx.Err()
			case "busy": // progress every 5 min for 30 min, then done
				for i := range 6 {
					time.Sleep(5 * time.Minute)
					if err := s.conn.Notify(ctx, NotificationProgress, map[string]any{"progressToken": p.Meta.ProgressToken, "progress": i}); err != nil {
						return nil, err
					}
				}
			case "endless": // progress every minute, for 10 h (a cap that fails to hold fails the test, not hang it)
				for i := range 600 {
					select {
					case <-ctx.Done():
						return nil, ctx.Err()
					case <-time.After(time.Minute):
					}
					if err := s.conn.Notify(ctx, NotificationProgress, map[string]any{"progressToken": p.Meta.ProgressToken, "progress": i}); err != nil {
						return nil, err
					}
				}
			}
			return json.RawMessage(`{"content":[]}`), nil
		})
		c := connect(t, s, nil)
		ctx := t.Context()

		elapsed := func(f func() error) (time.Duration, error) {
			start := time.Now()
			err := f()
			return time.Since(start), err
		}
		call := func(name string, opts *CallOptions) func() error {
			return func() error { _, err := c.CallTool(ctx, name, nil, opts); return err }
		}
		if d, err := elapsed(call("long", nil)); err != nil || d != 45*time.Second {
			t.Errorf("a tool silent for 45 s: %v after %v, want success", err, d)
		}
		if d, err := elapsed(call("idle", nil)); !errors.Is(err, jsonrpc.ErrTimeout) || d != DefaultToolTimeout {
			t.Errorf("an idle tool: %v after %v, want a timeout after %v", err, d, DefaultToolTimeout)
		}
		if d, err := elapsed(call("busy", nil)); err != nil || d != 30*time.Minute {
			t.Errorf("a tool with progress for 30 min: %v after %v, want success", err, d)
		}
		if d, err := elapsed(call("endless", &CallOptions{MaxTimeout: 20 * time.Minute})); !errors.Is(err, jsonrpc.ErrTimeout) || d != 20*time.Minute {
			t.Errorf("endless progress under a 20 min cap: %v after %v", err, d)
		}
		// With no idle deadline the cap still holds: progress must not
		// carry the call past it.
		if d, err := elapsed(call("endless", &CallOptions{Timeout: NoTimeout, MaxTimeout: 20 * time.Minute})); !errors.Is(err, jsonrpc.ErrTimeout) || d != 20*time.Minute {
			t.Errorf("endless progress under a 20 min cap and no idle deadline: %v after %v", err, d)
		}
		if d, err := elapsed(call("idle", &CallOptions{Timeout: time.Minute})); !errors.Is(err, jsonrpc.ErrTimeout) || d != time.Minute {
			t.Errorf("an idle tool with a 1 min Timeout: %v after %v", err, d)
		}
		if d, err := elapsed(func() error { return c.Ping(ctx) }); !errors.Is(err, jsonrpc.ErrTimeout) || d != DefaultTimeout {
			t.Errorf("Ping: %v after %v, want a timeout after %v", err, d, DefaultTimeout)
		}
		if d, err := elapsed(func() error { return c.Ping(WithRequestTimeout(ctx, 5*time.Second)) }); !errors.Is(err, jsonrpc.ErrTimeout) || d != 5*time.Second {
			t.Errorf("Ping under WithRequestTimeout(5s): %v after %v", err, d)
		}
		c.Close()
		synctest.Wait()
	})
}

// A client Timeout set alone is the deadline of every request, tool calls
// included (as their idle deadline); ToolTimeout overrides it for tools.
func TestToolTimeoutFollowsTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, tc := range []struct {
			opts *ClientOptions
			want time.Duration
		}{
			{&ClientOptions{Timeout: 5 * time.Second}, 5 * time.Second},
			{&ClientOptions{Timeout: 5 * time.Second, ToolTimeout: time.Minute}, time.Minute},
		} {
			s := newFakeServer(t)
			s.on(MethodToolsCall, func(ctx context.Context, _ *jsonrpc.Request) (any, error) {
				<-ctx.Done()
				return nil, ctx.Err()
			})
			c := connect(t, s, tc.opts)
			start := time.Now()
			_, err := c.CallTool(t.Context(), "idle", nil, nil)
			if d := time.Since(start); !errors.Is(err, jsonrpc.ErrTimeout) || d != tc.want {
				t.Errorf("%+v: %v after %v, want a timeout after %v", tc.opts, err, d, tc.want)
			}
			c.Close()
		}
		synctest.Wait()
	})
}
