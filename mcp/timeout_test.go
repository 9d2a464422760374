package mcp

import (
	"context"
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
		c.Close()
		synctest.Wait()
	})
}
