package server

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// plainReader hides the *os.File, so that the client's end is read the
// ordinary way and only the server's end reads in turns.
type plainReader struct{ io.Reader }

type closeAll []io.Closer

func (cs closeAll) Close() error {
	for _, c := range cs {
		_ = c.Close()
	}
	return nil
}

// TestServeInTurnsReadsCancellationDuringACall serves a session on OS
// pipes, which transport's stream lets the session read in turns on its
// own goroutine: a notifications/cancelled that comes while a tool runs
// must still be read and end the tool's ctx, and the end of Serve's ctx
// must interrupt the turn.
func TestServeInTurnsReadsCancellationDuringACall(t *testing.T) {
	upR, upW := osPipe(t)     // client -> server
	downR, downW := osPipe(t) // server -> client
	started, cancelled := make(chan struct{}), make(chan struct{})
	s := NewServer(nil)
	s.AddTool(Tool{Name: "wait"}, func(ctx context.Context, _ *ToolRequest) (*ToolResult, error) {
		close(started)
		<-ctx.Done()
		close(cancelled)
		return nil, ctx.Err()
	})
	defer s.Close()
	st := transport.NewStream(upR, downW, closeAll{upR, downW})
	if _, ok := st.(turnReader); !ok {
		t.Fatalf("transport.NewStream over an OS pipe (%T) cannot be read in turns", st)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, st) }()

	client := transport.NewStream(plainReader{downR}, upW, closeAll{downR, upW})
	defer client.Close()
	send := func(m jsonrpc.Message) {
		t.Helper()
		if err := client.Write(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	send(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "initialize", Params: []byte(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)})
	if m, err := client.Read(context.Background()); err != nil {
		t.Fatal(err)
	} else if r, ok := m.(*jsonrpc.Response); !ok || r.Error != nil {
		t.Fatalf("initialize: %#v", m)
	}
	send(&jsonrpc.Notification{Method: "notifications/initialized"})
	send(&jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/call", Params: []byte(`{"name":"wait"}`)})
	<-started
	send(&jsonrpc.Notification{Method: jsonrpc.MethodCancelled, Params: []byte(`{"requestId":2}`)})
	<-cancelled // read while the call ran

	stop()
	if err := <-served; !errors.Is(err, context.Canceled) {
		t.Fatalf("Serve after its ctx ended: %v, want context.Canceled", err)
	}
}

func TestNewStreamOverARegularFileIsNotReadInTurns(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	st := transport.NewStream(f, io.Discard, f)
	defer st.Close()
	if _, ok := st.(turnReader); ok {
		t.Fatal("a regular file, which has no read deadlines, was offered for reading in turns")
	}
}
