// Command mcpwire talks to Model Context Protocol servers from the shell:
// list and call tools, read resources, get prompts. The code lives in
// internal/cli; see docs/cli.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/mcpwire/mcpwire/internal/cli/cliutil"
	"github.com/mcpwire/mcpwire/internal/cli/root"
)

func main() {
	// Ctrl-C (or SIGTERM) cancels ctx: calls in flight return, the server
	// is closed properly, and the exit status is 130.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, restore the default handling: shutting
		// a server down may take a few seconds, and a second Ctrl-C
		// should end mcpwire at once.
		<-ctx.Done()
		stop()
	}()
	code := root.Main(ctx, cliutil.System(), os.Args[1:])
	stop()
	os.Exit(code)
}
