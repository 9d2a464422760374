package jsonrpc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// chanStream is one end of an in-memory pipe; real programs get their
// Stream from package transport.
type chanStream struct {
	in, out chan jsonrpc.Message
	closed  chan struct{}
	once    *sync.Once
}

func pipe() (a, b *chanStream) {
	x, y := make(chan jsonrpc.Message, 16), make(chan jsonrpc.Message, 16)
	closed, once := make(chan struct{}), &sync.Once{}
	return &chanStream{x, y, closed, once}, &chanStream{y, x, closed, once}
}

func (s *chanStream) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-s.in:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-s.closed:
		return nil, io.EOF
	}
}

func (s *chanStream) Write(ctx context.Context, m jsonrpc.Message) error {
	select {
	case s.out <- m:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.closed:
		return io.ErrClosedPipe
	}
}

func (s *chanStream) Close() error { s.once.Do(func() { close(s.closed) }); return nil }

// Two Conns talk to each other: one answers "add" with a Handler, the
// other calls it and decodes the raw result itself.
func ExampleConn_Call() {
	clientEnd, serverEnd := pipe()
	server := jsonrpc.NewConn(serverEnd, jsonrpc.Options{
		Handler: func(ctx context.Context, c *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
			if req.Method != "add" {
				return nil, jsonrpc.ErrMethodNotFound
			}
			var args []int
			if err := json.Unmarshal(req.Params, &args); err != nil {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, err.Error())
			}
			return args[0] + args[1], nil
		},
	})
	defer server.Close()
	client := jsonrpc.NewConn(clientEnd, jsonrpc.Options{Timeout: 10 * time.Second})
	defer client.Close()

	raw, err := client.Call(context.Background(), "add", []int{2, 3}, nil)
	fmt.Println(string(raw), err)

	_, err = client.Call(context.Background(), "subtract", []int{2, 3}, nil)
	fmt.Println(err)
	// Output:
	// 5 <nil>
	// jsonrpc error -32601: method not found: subtract
}

// A long call reports progress; each notifications/progress moves the
// call's deadline forward.
func ExampleCallOptions() {
	clientEnd, serverEnd := pipe()
	server := jsonrpc.NewConn(serverEnd, jsonrpc.Options{
		Handler: func(ctx context.Context, c *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
			var params struct {
				Meta struct {
					ProgressToken json.RawMessage `json:"progressToken"`
				} `json:"_meta"`
			}
			json.Unmarshal(req.Params, &params)
			for i := 1; i <= 3; i++ {
				c.Notify(ctx, jsonrpc.MethodProgress, map[string]any{
					"progressToken": params.Meta.ProgressToken, "progress": i, "total": 3,
				})
			}
			return map[string]string{"status": "done"}, nil
		},
	})
	defer server.Close()
	client := jsonrpc.NewConn(clientEnd, jsonrpc.Options{})
	defer client.Close()

	raw, err := client.Call(context.Background(), "tools/call", map[string]string{"name": "build"}, &jsonrpc.CallOptions{
		Timeout: 30 * time.Second, // idle time allowed between progress notifications
		OnProgress: func(p jsonrpc.Progress) {
			fmt.Printf("progress %v/%v\n", p.Progress, *p.Total)
		},
	})
	fmt.Println(string(raw), err)
	// Output:
	// progress 1/3
	// progress 2/3
	// progress 3/3
	// {"status":"done"} <nil>
}

// Subscribers see notifications in arrival order, on the engine's delivery
// goroutine.
func ExampleConn_Subscribe() {
	clientEnd, serverEnd := pipe()
	server := jsonrpc.NewConn(serverEnd, jsonrpc.Options{})
	defer server.Close()
	client := jsonrpc.NewConn(clientEnd, jsonrpc.Options{})
	defer client.Close()

	got := make(chan string)
	unsubscribe := client.Subscribe("notifications/message", func(n *jsonrpc.Notification) {
		got <- string(n.Params)
	})
	defer unsubscribe()
	server.Notify(context.Background(), "notifications/message", map[string]string{"level": "info", "data": "hello"})
	server.Notify(context.Background(), "notifications/message", map[string]string{"level": "info", "data": "world"})
	fmt.Println(<-got)
	fmt.Println(<-got)
	// Output:
	// {"data":"hello","level":"info"}
	// {"data":"world","level":"info"}
}
