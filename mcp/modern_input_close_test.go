package mcp

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
)

// A handler answering a modern input request gets a ctx that ends when
// the session ends, as the same handler's ctx does for an older era's
// server request: Close releases a handler that waits on a person, and
// the call it serves returns instead of waiting for an answer nobody
// could send.
func TestModernInputHandlerEndsWithTheSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.ModernOnly})
		asked := make(chan struct{})
		ended := make(chan bool, 1)
		c, _ := connectMCPTest(t, srv, modernWith(func(o *ClientOptions) {
			o.Elicitation = func(ctx context.Context, _ *ElicitRequest) (*ElicitResult, error) {
				close(asked)
				select {
				case <-ctx.Done():
					ended <- true
					return nil, ctx.Err()
				case <-time.After(time.Hour): // a failure bound, in the bubble's time
					ended <- false
					return &ElicitResult{Action: "cancel"}, nil
				}
			}
		}))
		done := make(chan error, 1)
		go func() {
			_, err := c.CallTool(t.Context(), "elicit", map[string]any{"message": "who?"}, nil)
			done <- err
		}()
		<-asked
		c.Close()
		if !<-ended {
			t.Error("the handler's ctx did not end when the session closed")
		}
		if err := <-done; !errors.Is(err, jsonrpc.ErrClosed) {
			t.Errorf("CallTool after Close: %v, want jsonrpc.ErrClosed", err)
		}
	})
}
