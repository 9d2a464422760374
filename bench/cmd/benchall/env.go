package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
)

// env is what every workload needs: the server, the clients, the counts.
type env struct {
	reps    int
	quick   bool
	bin     string                    // the canned server binary
	targets map[string]clients.Target // "stdio", "http", "sse"
	// modern are the same transports to the canned server of the
	// stateless 2026-07-28 era (started only for the workloads of that era).
	modern  map[string]clients.Target
	clients []*clients.Client
	log     io.Writer
	dir     string // the run's scratch directory
	// mcpwireBin is the mcpwire command, built for the gateway workload
	// (mcpwireErr says why not).
	mcpwireBin, mcpwireErr string
	// relayBin is the line relay, the gateway workload's floor over a
	// stdio upstream; relayErr says why it is missing.
	relayBin, relayErr string
}

// transports in table order.
var transportNames = map[string]string{
	"stdio": "stdio",
	"http":  "Streamable HTTP, JSON replies",
	"sse":   "Streamable HTTP, SSE replies",
}

// clientsFor returns the clients that can reach the transport.
func (e *env) clientsFor(tr string, floors bool) []*clients.Client {
	var out []*clients.Client
	for _, c := range e.clients {
		if tr != "stdio" && !c.HTTP {
			continue
		}
		if c.Floor && !floors {
			continue
		}
		out = append(out, c)
	}
	return out
}

func names(cs []*clients.Client) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// n scales a count down in quick mode.
func (e *env) n(full int) int {
	if e.quick {
		return max(1, full/50)
	}
	return full
}

// interleave runs fn once per repetition for every client, rotating the
// order each repetition so that no client always runs first or last.
func (e *env) interleave(cs []*clients.Client, fn func(rep int, c *clients.Client)) {
	for rep := range e.reps {
		for i := range cs {
			c := cs[(i+rep)%len(cs)]
			settle()
			fn(rep, c)
		}
	}
}

// settle collects garbage and drops idle HTTP connections left by the
// previous measurement, so that it does not bill the next client.
func settle() {
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t.CloseIdleConnections()
	}
	runtime.GC()
}

// openAll connects every client; a client that fails is recorded in t and
// left out.
func (e *env) openAll(cs []*clients.Client, tr string, t *Table) map[string]clients.Session {
	return e.openAt(cs, e.targets[tr], t)
}

// openAt is openAll against one target.
func (e *env) openAt(cs []*clients.Client, target clients.Target, t *Table) map[string]clients.Session {
	out := make(map[string]clients.Session)
	for _, c := range cs {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		s, err := c.Connect(ctx, target)
		cancel()
		if err != nil {
			t.fail(c.Name, fmt.Errorf("connect: %w", err))
			continue
		}
		out[c.Name] = s
	}
	return out
}

func closeAll(ss map[string]clients.Session) {
	for _, s := range ss {
		s.Close()
	}
}

func (e *env) logf(format string, args ...any) {
	fmt.Fprintf(e.log, format+"\n", args...)
}

// measureCtx bounds one measurement.
func measureCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 3*time.Minute)
}
