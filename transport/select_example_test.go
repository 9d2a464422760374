package transport_test

import (
	"fmt"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/transport"
)

func ExampleFromServer() {
	for _, c := range []*config.Server{
		{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}},
		{Type: "streamableHttp", URL: "https://mcp.example.com/mcp"},
		{Type: "sse", URL: "https://mcp.example.com/sse"},
		{URL: "https://mcp.example.com/mcp"},
		{Type: "websocket", URL: "wss://mcp.example.com"},
	} {
		tr, err := transport.FromServer(c, transport.ServerOptions{})
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("%T\n", tr)
	}
	// Output:
	// *transport.Command
	// *transport.StreamableHTTP
	// *transport.SSE
	// *transport.Auto
	// error: transport: server "": config: unknown type "websocket": want "stdio", "http" (also "streamable-http", "streamableHttp"), "sse" or "auto"
}
