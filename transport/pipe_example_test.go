package transport_test

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// A client and a server in one process, talking JSON lines through Pipe.
func ExamplePipe() {
	client, server := transport.Pipe()
	defer client.Close()
	ctx := context.Background()

	go func() {
		m, err := server.Read(ctx)
		if err != nil {
			return
		}
		req := m.(*jsonrpc.Request)
		resp, _ := jsonrpc.NewResponse(req.ID, map[string]string{"echo": req.Method}, nil)
		server.Write(ctx, resp)
	}()

	req, _ := jsonrpc.NewRequest(jsonrpc.Int64ID(1), "ping", nil)
	if err := client.Write(ctx, req); err != nil {
		fmt.Println(err)
		return
	}
	m, err := client.Read(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(m.(*jsonrpc.Response).Result))
	// Output: {"echo":"ping"}
}
