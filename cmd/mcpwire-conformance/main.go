// Command mcpwire-conformance is the client that the official MCP
// conformance suite (@modelcontextprotocol/conformance) drives. The suite
// starts a scripted server, then runs this program with the server's URL as
// the last argument and the scenario's name in MCP_CONFORMANCE_SCENARIO.
// The program does what the scenario asks, using only the mcpwire library,
// and exits 0 on success.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpwire-conformance [flags...] SERVER_URL (scenario in MCP_CONFORMANCE_SCENARIO)")
		os.Exit(2)
	}
	url := os.Args[len(os.Args)-1]
	scenario := os.Getenv("MCP_CONFORMANCE_SCENARIO")

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	if err := run(ctx, scenario, url); err != nil {
		fmt.Fprintf(os.Stderr, "mcpwire-conformance: %s: %v\n", scenarioName(scenario), err)
		os.Exit(1)
	}
}

func scenarioName(s string) string {
	if s == "" {
		return "(no scenario)"
	}
	return s
}
