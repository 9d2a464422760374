package mcp_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// The examples below talk to mcptest's default server in process; a real
// program reaches its server with transport.Command or
// transport.StreamableHTTP instead.

func ExampleCallOptions_progress() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	ctx := context.Background()
	c, err := mcp.Connect(ctx, srv.Transport(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	// Each progress notification is passed on in order, and keeps the
	// call alive: it moves the idle deadline (ToolTimeout) forward.
	res, err := c.CallTool(ctx, "slow", map[string]int{"steps": 3, "delay_ms": 1}, &mcp.CallOptions{
		OnProgress: func(_ context.Context, p mcp.ProgressNotification) {
			fmt.Printf("%.0f/%.0f %s\n", p.Progress, *p.Total, p.Message)
		},
		// This call may go 2 minutes without progress, and 1 hour in all.
		Timeout:    2 * time.Minute,
		MaxTimeout: time.Hour,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].Text)
	// Output:
	// 1/3 step 1 of 3
	// 2/3 step 2 of 3
	// 3/3 step 3 of 3
	// done after 3 steps
}

func ExampleClientOptions_notifications() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	ctx := context.Background()
	changed := make(chan string, 1)
	// Callbacks set in the options see every notification from the
	// first on; their ctx says which server sent it and ends with the
	// session.
	c, err := mcp.Connect(ctx, srv.Transport(), &mcp.ClientOptions{
		ServerName: "demo",
		OnToolsListChanged: func(ctx context.Context) {
			o, _ := mcp.OriginOf(ctx)
			changed <- o.Server
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if _, err := c.CallTool(ctx, "add-tool", map[string]string{"name": "echo2"}, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println("tools changed on", <-changed)
	// Output:
	// tools changed on demo
}

func ExampleClientOptions_sampling() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	ctx := context.Background()
	c, err := mcp.Connect(ctx, srv.Transport(), &mcp.ClientOptions{
		// The server asks the client's model; an agent would ask its
		// user first, and return mcp.ErrSamplingRejected on a no.
		Sampling: func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			prompt := req.Messages[0].Content[0].Text
			return &mcp.CreateMessageResult{Content: mcp.SamplingContent{mcp.TextContent("an answer to " + prompt)}, Model: "demo-model"}, nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "sample", map[string]string{"prompt": "a question"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].Text)
	// Output:
	// an answer to a question
}

func ExampleClient_SubscribeResource() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	ctx := context.Background()
	updated := make(chan string, 1)
	c, err := mcp.Connect(ctx, srv.Transport(), &mcp.ClientOptions{
		OnResourceUpdated: func(_ context.Context, u mcp.ResourceUpdated) { updated <- u.URI },
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	// The client remembers the subscription: a renewed HTTP session,
	// or a client given SessionState as ClientOptions.Restore, gets it
	// again.
	if err := c.SubscribeResource(ctx, mcptest.HelloURI); err != nil {
		log.Fatal(err)
	}
	if _, err := c.CallTool(ctx, "touch", map[string]string{"uri": mcptest.HelloURI}, nil); err != nil {
		log.Fatal(err)
	}
	fmt.Println("updated:", <-updated)
	fmt.Println("held:", c.SessionState().Subscriptions)
	// Output:
	// updated: mcptest://static/hello.txt
	// held: [mcptest://static/hello.txt]
}

func ExampleClient_StartToolTask() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	srv.AddTaskTool(mcptest.Tool{Name: "research"}, mcptest.TaskRequired, func(ctx context.Context, req *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		return mcptest.TextResult("a report"), nil
	})
	ctx := context.Background()
	// Tasks as the core protocol has them belong to the legacy era (the
	// 2026-07-28 revision moved them to an extension), so this client
	// pins it.
	c, err := mcp.Connect(ctx, srv.Transport(), &mcp.ClientOptions{ProtocolVersion: mcp.LatestLegacyProtocolVersion})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()

	// Callers who just want the result call CallTool: it runs the task
	// and waits for it.
	res, err := c.CallTool(ctx, "research", nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("CallTool:", res.Content[0].Text)

	// Callers who want the task hold it themselves.
	task, err := c.StartToolTask(ctx, "research", nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	final, err := c.WaitTask(ctx, task.TaskID)
	if err != nil {
		log.Fatal(err)
	}
	res, err = c.ToolTaskResult(ctx, task.TaskID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("task:", final.Status, res.Content[0].Text)
	// Output:
	// CallTool: a report
	// task: completed a report
}

// lineTransport is a custom transport: anything that yields a
// jsonrpc.Stream. Here, JSON lines over a pair of pipes to a server in
// this process; a real one might dial a socket or a serial port.
type lineTransport struct{ srv *mcptest.Server }

func (t lineTransport) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	go func() {
		// The server's end of the same framing.
		_ = t.srv.Serve(context.Background(), transport.NewStream(toServer, fromServer, fromServer))
	}()
	return transport.NewStream(clientIn, clientOut, clientOut), nil
}

func ExampleNewClient_customTransport() {
	srv := mcptest.NewDefault(nil)
	defer srv.Close()
	ctx := context.Background()
	var t transport.Transport = lineTransport{srv}
	c, err := mcp.Connect(ctx, t, nil)
	if err != nil {
		log.Fatal(err)
	}
	res, err := c.CallTool(ctx, "echo", map[string]string{"message": "over a custom transport"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Content[0].Text)
	c.Close()
	// Output:
	// over a custom transport
}
