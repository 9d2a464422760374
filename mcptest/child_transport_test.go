package mcptest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// The re-executed child works with the real stdio transport, whose
// Command takes ChildProcess's fields as they are.
func TestChildThroughTheStdioTransport(t *testing.T) {
	child := mcptest.ChildCommand("crash:echo")
	cmd := &transport.Command{Command: child.Path, Args: child.Args, Env: child.Env}
	stream, err := cmd.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc.NewConn(stream, jsonrpc.Options{})
	defer conn.Close()
	ctx := context.Background()
	if _, err := conn.Call(ctx, "initialize", map[string]any{"protocolVersion": mcptest.LatestProtocolVersion, "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "t", "version": "1"}}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	_ = conn.Notify(ctx, "notifications/initialized", nil)
	if _, err := conn.Call(ctx, "tools/call", map[string]any{"name": "add", "arguments": map[string]int{"a": 1, "b": 1}}, nil); err != nil {
		t.Fatalf("add: %v", err)
	}
	_, err = conn.Call(ctx, "tools/call", map[string]any{"name": "echo", "arguments": map[string]string{"message": "boom"}}, nil)
	var exit *transport.ExitError
	if !errors.As(err, &exit) || exit.ExitCode != mcptest.CrashExitCode || !strings.Contains(exit.StderrTail, "mcptest: crashing on purpose") {
		t.Fatalf("echo on a crashing child: %v", err)
	}
}
