//go:build unix

package mcp_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// silentChild never answers and ignores SIGTERM; only SIGKILL ends it.
// Its graceful stop is an hour long, so a Connect that waited for it
// would never return within the test.
func silentChild() *transport.Command {
	return &transport.Command{
		Command:      "sh",
		Args:         []string{"-c", "trap '' TERM; while :; do sleep 1; done"},
		CloseTimeout: time.Hour,
		KillTimeout:  time.Hour,
	}
}

// connectReturns runs Connect and fails the test if it has not returned
// by bound, far beyond the handshake's own deadline.
func connectReturns(t *testing.T, ctx context.Context, opts *mcp.ClientOptions) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		c, err := mcp.Connect(ctx, silentChild(), opts)
		if c != nil {
			c.Close()
		}
		done <- err
	}()
	const bound = time.Minute
	select {
	case err := <-done:
		return err
	case <-time.After(bound):
		t.Fatalf("Connect to a server that never answers has not returned %v after its handshake's deadline: it waits for the child's graceful stop", bound)
		return nil
	}
}

func TestConnectAbandonsAChildThatNeverAnswered(t *testing.T) {
	t.Run("ctx ends", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		err := connectReturns(t, ctx, &mcp.ClientOptions{ProtocolVersion: mcp.LatestLegacyProtocolVersion})
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Connect = %v, want ctx's deadline", err)
		}
	})
	t.Run("the client's timeout", func(t *testing.T) {
		err := connectReturns(t, context.Background(), &mcp.ClientOptions{
			ProtocolVersion: mcp.LatestLegacyProtocolVersion,
			Timeout:         200 * time.Millisecond,
		})
		if !errors.Is(err, jsonrpc.ErrTimeout) {
			t.Fatalf("Connect = %v, want the request timeout", err)
		}
	})
}
