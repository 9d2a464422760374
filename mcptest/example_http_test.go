package mcptest_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// StartHTTPServer needs no test: a program can serve the default server
// on loopback and point a client at it.
func ExampleStartHTTPServer() {
	hs := mcptest.StartHTTPServer(mcptest.NewDefault(nil), nil)
	defer hs.Close()
	ctx := context.Background()
	c, err := mcp.Connect(ctx, &transport.StreamableHTTP{URL: hs.URL}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	fmt.Println(c.ServerInfo().Name)
	// Output: mcptest
}
