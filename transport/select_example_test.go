package transport_test

import (
	"fmt"

	"github.com/mcpwire/mcpwire/transport"
)

func ExampleFromConfig() {
	for _, c := range []transport.Config{
		{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}},
		{Type: "streamableHttp", URL: "https://mcp.example.com/mcp"},
		{Type: "sse", URL: "https://mcp.example.com/sse"},
		{URL: "https://mcp.example.com/mcp"},
		{Type: "websocket", URL: "wss://mcp.example.com"},
	} {
		tr, err := transport.FromConfig(c)
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
	// error: transport config: unknown type "websocket"; use "stdio", "http" (Streamable HTTP) or "sse" (legacy HTTP+SSE)
}
