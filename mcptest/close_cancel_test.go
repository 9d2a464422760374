//go:build unix

package mcptest_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// A call the caller gives up on, followed at once by Close, still tells
// the server: the notifications/cancelled goes out before the stream
// closes. These tests watch the wire itself, on stdio through tee and on
// Streamable HTTP through the server's request log.

// giveUps are the ways a call is given up on: by its deadline or by its
// caller.
var giveUps = []struct {
	name string
	call func(c *jsonrpc.Conn) error
}{
	{"deadline", func(c *jsonrpc.Conn) error {
		_, err := c.Call(context.Background(), "tools/call", slowCall, &jsonrpc.CallOptions{Timeout: 300 * time.Millisecond})
		if !errors.Is(err, jsonrpc.ErrTimeout) {
			return err
		}
		return nil
	}},
	{"caller cancel", func(c *jsonrpc.Conn) error {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(300*time.Millisecond, cancel)
		_, err := c.Call(ctx, "tools/call", slowCall, nil)
		if !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	}},
}

// slowCall runs for far longer than any test waits.
var slowCall = map[string]any{"name": "slow", "arguments": map[string]int{"steps": 1, "delay_ms": 600_000}}

// giveUpThenClose connects, makes the handshake, gives up on a slow call
// (request 2) and closes at once.
func giveUpThenClose(t *testing.T, tr transport.Transport, giveUp func(*jsonrpc.Conn) error) {
	t.Helper()
	ctx := context.Background()
	stream, err := tr.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonrpc.NewConn(stream, jsonrpc.Options{})
	params := map[string]any{"protocolVersion": mcptest.LatestProtocolVersion, "capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "t", "version": "1"}}
	if _, err := c.Call(ctx, "initialize", params, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := c.Notify(ctx, "notifications/initialized", nil); err != nil {
		t.Fatalf("initialized: %v", err)
	}
	if err := giveUp(c); err != nil {
		t.Fatalf("the slow call: %v, want it given up", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// The child's stdin, captured by tee in front of it, holds the cancel of
// the call (id 2, after initialize) before it ends.
func TestCloseSendsTheCancelToTheChildsStdin(t *testing.T) {
	for _, g := range giveUps {
		t.Run(g.name, func(t *testing.T) {
			stdin := filepath.Join(t.TempDir(), "stdin.jsonl")
			child := mcptest.ChildCommand()
			cmd := &transport.Command{
				Command: "sh",
				Args:    append([]string{"-c", `tee "$0" | "$@"`, stdin, child.Path}, child.Args...),
				Env:     child.Env,
			}
			giveUpThenClose(t, cmd, g.call)
			// Close returned after the child (and tee) exited.
			wire, err := os.ReadFile(stdin)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(wire)), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, `"method":"notifications/cancelled","params":{"requestId":2,`) {
				t.Fatalf("the child's stdin ends with %s, want the cancel of request 2; all of it:\n%s", last, wire)
			}
		})
	}
}

// Over Streamable HTTP the cancel is POSTed before Close ends the session
// with DELETE.
func TestCloseSendsTheCancelBeforeDelete(t *testing.T) {
	for _, g := range giveUps {
		t.Run(g.name, func(t *testing.T) {
			srv := mcptest.NewHTTPServer(t, mcptest.NewDefault(nil), nil)
			giveUpThenClose(t, &transport.StreamableHTTP{URL: srv.URL}, g.call)
			cancelAt, deleteAt := -1, -1
			var seen []string
			for i, r := range srv.Requests() {
				seen = append(seen, r.Method+" "+string(r.Body))
				switch {
				case r.Method == "POST" && bytes.Contains(r.Body, []byte(`"method":"notifications/cancelled","params":{"requestId":2,`)):
					cancelAt = i
				case r.Method == "DELETE":
					deleteAt = i
				}
			}
			if cancelAt < 0 || deleteAt < 0 || cancelAt > deleteAt {
				t.Fatalf("want the cancel of request 2 POSTed, then DELETE; the server saw:\n%s", strings.Join(seen, "\n"))
			}
		})
	}
}
