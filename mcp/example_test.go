package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// demoServer starts a tiny MCP server on one end of an in-memory pipe and
// returns the other end. It offers one tool, "add", whose outputSchema
// promises {"sum": number}.
func demoServer() jsonrpc.Stream {
	client, server := transport.Pipe()
	jsonrpc.NewConn(server, jsonrpc.Options{
		Handler: func(ctx context.Context, c *jsonrpc.Conn, req *jsonrpc.Request) (any, error) {
			switch req.Method {
			case "initialize":
				return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},
					"serverInfo":{"name":"demo","version":"1.0.0"},"instructions":"Adds numbers."}`), nil
			case "tools/list":
				return json.RawMessage(`{"tools":[{"name":"add","title":"Add two numbers",
					"inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}},
					"outputSchema":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}}]}`), nil
			case "tools/call":
				var p struct {
					Name      string                 `json:"name"`
					Arguments struct{ A, B float64 } `json:"arguments"`
				}
				if err := json.Unmarshal(req.Params, &p); err != nil {
					return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, err.Error())
				}
				if p.Name != "add" {
					return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "unknown tool: "+p.Name)
				}
				sum := p.Arguments.A + p.Arguments.B
				if p.Arguments.A < 0 { // a bug: the output breaks the schema
					return json.RawMessage(`{"content":[{"type":"text","text":"oops"}],"structuredContent":{"total":0}}`), nil
				}
				return map[string]any{
					"content":           []mcp.Content{mcp.TextContent(fmt.Sprint(sum))},
					"structuredContent": map[string]float64{"sum": sum},
				}, nil
			}
			return nil, jsonrpc.ErrMethodNotFound
		},
	})
	return client // closing the client's end closes the server's too
}

func ExampleNewClient() {
	ctx := context.Background()
	c, err := mcp.NewClient(ctx, demoServer(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	fmt.Println(c.ServerInfo().Name, c.ServerInfo().Version)
	fmt.Println("protocol", c.ProtocolVersion())
	fmt.Println("has tools:", c.ServerCapabilities().Tools != nil)
	fmt.Println(c.Instructions())
	// Output:
	// demo 1.0.0
	// protocol 2025-11-25
	// has tools: true
	// Adds numbers.
}

func ExampleConnect() {
	// Connect opens a transport and runs the handshake. Here: a server
	// reached over Streamable HTTP.
	ctx := context.Background()
	c, err := mcp.Connect(ctx, &transport.StreamableHTTP{
		URL:     "http://127.0.0.1:8080/mcp",
		Headers: http.Header{"Authorization": {"Bearer " + "token-from-your-config"}},
	}, &mcp.ClientOptions{
		ClientInfo:   mcp.Implementation{Name: "my-agent", Version: "1.0.0"},
		OnLogMessage: func(_ context.Context, m mcp.LoggingMessage) { log.Printf("server %s: %s", m.Level, m.Data) },
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	tools, err := c.ListTools(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Println(t.DisplayName())
	}
}

func ExampleClient_ListTools() {
	ctx := context.Background()
	c, err := mcp.NewClient(ctx, demoServer(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	tools, err := c.ListTools(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tools {
		fmt.Printf("%s (%s), output schema: %v\n", t.Name, t.DisplayName(), t.OutputSchema != nil)
	}
	// Output:
	// add (Add two numbers), output schema: true
}

func ExampleClient_CallTool() {
	ctx := context.Background()
	c, err := mcp.NewClient(ctx, demoServer(), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	// Listing the tools first lets CallTool check structured output
	// against each tool's outputSchema.
	if _, err := c.ListTools(ctx); err != nil {
		log.Fatal(err)
	}

	res, err := c.CallTool(ctx, "add", map[string]float64{"a": 2, "b": 3}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("text:", res.Content[0].Text)
	fmt.Println("structured:", string(res.StructuredContent))

	// A result that breaks the schema still arrives, with an error.
	res, err = c.CallTool(ctx, "add", map[string]float64{"a": -1, "b": 3}, nil)
	var schemaErr *mcp.OutputSchemaError
	if errors.As(err, &schemaErr) {
		fmt.Println("tool:", schemaErr.Tool)
		fmt.Println("error:", err)
		fmt.Println("text anyway:", res.Content[0].Text)
	}

	// An unknown tool is a protocol error.
	_, err = c.CallTool(ctx, "subtract", nil, nil)
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		fmt.Println("rpc error:", rpcErr.Code)
	}
	// Output:
	// text: 5
	// structured: {"sum":5}
	// tool: add
	// error: mcp: tool "add": the structured output does not match its outputSchema: at '': missing property 'sum'
	// text anyway: oops
	// rpc error: -32602
}

func ExampleClientOptions_elicitation() {
	// A headless client that accepts every form with its defaults, and
	// declines one whose defaults its schema refuses. It sets no
	// ElicitationURL handler, so URL mode (which needs a human, a browser
	// and their consent) is not declared and never asked for.
	opts := &mcp.ClientOptions{
		Elicitation: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			defaults, err := mcp.ElicitationDefaults(req.RequestedSchema)
			if errors.Is(err, mcp.ErrNoValidAnswer) {
				log.Printf("declined %q: %v", req.Message, err)
				return &mcp.ElicitResult{Action: mcp.ElicitDecline}, nil
			}
			if err != nil {
				return nil, err
			}
			return &mcp.ElicitResult{Action: mcp.ElicitAccept, Content: defaults}, nil
		},
	}
	c, err := mcp.NewClient(context.Background(), demoServer(), opts)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	caps, _ := json.Marshal(c.ClientCapabilities())
	fmt.Println(string(caps))
	// Output:
	// {"elicitation":{"form":{}}}
}
