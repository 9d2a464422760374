package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// connClient is a jsonrpc.Conn client on stream that answers roots/list
// and sampling/createMessage, and has done the MCP handshake.
func connClient(t *testing.T, stream jsonrpc.Stream) *jsonrpc.Conn {
	t.Helper()
	conn := jsonrpc.NewConn(stream, jsonrpc.Options{
		Handler: func(_ context.Context, _ *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
			switch req.Method {
			case "roots/list":
				return map[string]any{"roots": []map[string]string{{"uri": "file:///conn"}}}, nil
			case "sampling/createMessage":
				return map[string]any{"role": "assistant", "model": "m", "content": map[string]string{"type": "text", "text": "from conn"}}, nil
			}
			return nil, jsonrpc.ErrMethodNotFound
		},
	})
	t.Cleanup(func() { _ = conn.Close() })
	ctx := context.Background()
	if _, err := conn.Call(ctx, "initialize", map[string]any{"protocolVersion": LatestProtocolVersion, "capabilities": map[string]any{"roots": struct{}{}, "sampling": struct{}{}}, "clientInfo": map[string]string{"name": "conn", "version": "1"}}, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := conn.Notify(ctx, "notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	return conn
}

func callTool(t *testing.T, conn *jsonrpc.Conn, name string, args any, opts *jsonrpc.CallOptions) toolResultWire {
	t.Helper()
	raw, err := conn.Call(context.Background(), "tools/call", map[string]any{"name": name, "arguments": args}, opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return decodeToolResult(t, raw)
}

func TestConnectWithTheEngine(t *testing.T) {
	stream, _ := Connect(t, NewDefault(nil))
	conn := connClient(t, stream)
	if r := callTool(t, conn, "sample", map[string]string{"prompt": "p"}, nil); r.text() != "from conn" {
		t.Errorf("sample %+v", r)
	}
	if r := callTool(t, conn, "roots", nil, nil); !strings.Contains(r.text(), "file:///conn") {
		t.Errorf("roots %+v", r)
	}
	var progress []jsonrpc.Progress
	r := callTool(t, conn, "slow", map[string]int{"steps": 3, "delay_ms": 1}, &jsonrpc.CallOptions{OnProgress: func(p jsonrpc.Progress) { progress = append(progress, p) }})
	if r.text() != "done after 3 steps" || len(progress) != 3 || progress[2].Progress != 3 {
		t.Errorf("slow %+v with progress %+v", r, progress)
	}
}

func TestConnCancelReachesTheServer(t *testing.T) {
	stream, ss := Connect(t, NewDefault(nil))
	conn := connClient(t, stream)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := conn.Call(ctx, "tools/call", map[string]any{"name": "slow", "arguments": map[string]int{"steps": 1, "delay_ms": 3_600_000}}, nil)
		errc <- err
	}()
	waitCtx, stop := context.WithTimeout(context.Background(), safetyNet)
	defer stop()
	m, err := ss.WaitReceived(waitCtx, "tools/call")
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled call: %v", err)
	}
	if err := ss.WaitCancelled(waitCtx, m.(*jsonrpc.Request).ID); err != nil {
		t.Error(err)
	}
}

func TestPipeTransportAndClose(t *testing.T) {
	s := NewDefault(nil)
	tr := s.Transport()
	var conns []*jsonrpc.Conn
	for range 2 {
		stream, err := tr.Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, connClient(t, stream))
	}
	if n := len(s.Sessions()); n != 2 {
		t.Errorf("%d sessions, want 2", n)
	}
	raw, err := conns[1].Call(context.Background(), "tools/list", nil, nil)
	if err != nil || !json.Valid(raw) {
		t.Fatalf("tools/list: %v", err)
	}
	// Close ends every session: the clients see their connection end.
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, c := range conns {
		<-c.Done()
	}
	if n := len(s.Sessions()); n != 0 {
		t.Errorf("%d sessions after Close", n)
	}
	if _, err := tr.Connect(context.Background()); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("Connect after Close: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewDefault(nil).Transport().Connect(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Connect with a dead ctx: %v", err)
	}
}

func TestServeReturnsWhenCtxEnds(t *testing.T) {
	client, server := pipePair()
	defer client.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- NewDefault(nil).Serve(ctx, server) }()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Serve: %v, want context.Canceled", err)
	}
	// Serve closed the stream: the client's next read ends.
	if _, err := client.Read(context.Background()); !errors.Is(err, jsonrpc.ErrClosed) {
		t.Errorf("client read after Serve returned: %v", err)
	}
}
