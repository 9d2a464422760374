package transport_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/mcpwire/mcpwire/transport"
)

// Starting a stdio server: only the allow-listed environment plus the
// configured variables reach it, and its stderr is mirrored live.
func ExampleCommand() {
	server := &transport.Command{
		Command:      "npx",
		Args:         []string{"-y", "@modelcontextprotocol/server-everything"},
		Env:          map[string]string{"LOG_LEVEL": "debug"},
		Stderr:       os.Stderr,
		CloseTimeout: 5 * time.Second,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream, err := server.Connect(ctx) // ctx bounds the start only
	if err != nil {
		fmt.Println(err)
		return
	}
	defer stream.Close() // closes stdin, then SIGTERM, then SIGKILL

	// ... hand stream to jsonrpc.NewConn. When the server dies, Read
	// reports how:
	if _, err := stream.Read(context.Background()); err != nil {
		var exit *transport.ExitError
		if errors.As(err, &exit) {
			fmt.Println("server exited:", exit.ExitCode, exit.StderrTail)
		}
	}
}
