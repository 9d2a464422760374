package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/gateway"
)

// drain is serve --listen's graceful stop (--drain), for a replica taken
// out of a load balancer for a rolling restart: /readyz turns 503, the
// listener closes (new connections go to the other replicas), hosts' GET
// and listen streams end (they reopen them elsewhere), and the calls in
// flight get their answers, for up to d. A second SIGTERM or Ctrl-C
// stops at once, as without --drain. It returns when every request has
// been answered, d has passed, or that signal came.
func drain(streams *IOStreams, g *gateway.Gateway, srv *http.Server, d time.Duration) {
	// Listening for the second signal before saying "signal again": one
	// sent on reading that line must not fall in a gap where nothing
	// takes it.
	again := make(chan os.Signal, 1)
	signal.Notify(again, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(again)
	fmt.Fprintf(streams.ErrOut, "mcpwire: serve: draining: no new connections; calls in flight have up to %s to finish (signal again to stop now)\n", d)
	g.Drain()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	go func() {
		select {
		case <-again:
			cancel()
		case <-ctx.Done():
		}
	}()
	switch err := srv.Shutdown(ctx); {
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(streams.ErrOut, "mcpwire: serve: signalled again: stopping now; calls still running are cut off")
	case err != nil:
		fmt.Fprintf(streams.ErrOut, "mcpwire: serve: drained for %s; calls still running are cut off\n", d)
	}
}
