package mcp

import (
	"context"
	"reflect"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// Progress comes in one shape: a call's OnProgress and the client's get
// the same ProgressNotification (token included), each with a ctx.
func TestProgressCallbacksShareOneShape(t *testing.T) {
	srv := mcptest.NewDefault(&mcptest.Options{Eras: mcptest.LegacyOnly})
	fromClient := make(chan ProgressNotification, 16)
	c, _ := connectMCPTest(t, srv, &ClientOptions{
		OnProgress: func(_ context.Context, p ProgressNotification) { fromClient <- p },
	})
	var call []ProgressNotification
	_, err := c.CallTool(t.Context(), "slow", map[string]int{"steps": 3, "delay_ms": 1}, &CallOptions{
		OnProgress: func(ctx context.Context, p ProgressNotification) {
			if ctx == nil {
				t.Error("a call's OnProgress got no ctx")
			}
			call = append(call, p)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(call) != 3 || len(call[0].ProgressToken) == 0 {
		t.Fatalf("the call's OnProgress saw %+v, want 3 notifications with their token", call)
	}
	// The client-wide callback runs on the delivery goroutine; the last
	// one may still be on its way when the call returns.
	var client []ProgressNotification
	for len(client) < len(call) {
		select {
		case p := <-fromClient:
			client = append(client, p)
		case <-t.Context().Done():
			t.Fatal("the client's OnProgress missed notifications")
		}
	}
	if !reflect.DeepEqual(client, call) {
		t.Errorf("the client's OnProgress saw %+v, the call's %+v", client, call)
	}
}
