package main

import (
	"fmt"
	"net/http"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
)

// The workloads of the two protocol eras. The legacy era's server is the
// canned server as the other workloads use it (initialize; server/discover
// refused with -32601, as servers of 2025 do); the modern era's is the
// same binary with -era modern, which speaks only the stateless 2026-07-28
// revision and refuses the legacy one, so that no client passes there by
// falling back.

var (
	mHandshake = Metric{Key: "connected-ms", Head: "connected, ms", Lower: true, Bar: 1, Format: "%.2f"}
	mFirst     = Metric{Key: "first-ms", Head: "first result, ms", Lower: true, Bar: 1, Format: "%.2f"}
)

// firstConnects is how many connections make one sample (their median).
// Spawning the server process takes most of a stdio connection and varies
// with the machine's load, so a sample takes more of them than the
// connect workload's five; they take a few milliseconds each.
const firstConnects = 20

// eraClients are the clients (and floors) that speak both eras, so that
// the two tables of a transport have the same rows.
func (e *env) eraClients(tr string) []*clients.Client {
	var out []*clients.Client
	for _, c := range e.clientsFor(tr, true) {
		if c.Modern {
			out = append(out, c)
		}
	}
	return out
}

// first: from nothing to the first tools/call result, in each era: spawn
// (stdio) and the handshake ("connected": initialize and
// notifications/initialized, or server/discover, whatever the client does
// by default, fallbacks included), then one echo call ("first result",
// counted from the same start). The close afterwards is not timed.
func (e *env) first(tr string) []*Table {
	cs := e.eraClients(tr)
	what := "spawn + handshake"
	if tr != "stdio" {
		what = "handshake (the server is already running)"
	}
	legacy := newTable("first-legacy/"+tr, fmt.Sprintf("Handshake and first tools/call, legacy era (a server of 2025: `initialize`, `server/discover` refused), %s: %s, then one call", transportNames[tr], what),
		names(cs), mHandshake, mFirst)
	modern := newTable("first-2026/"+tr, fmt.Sprintf("Handshake and first tools/call, 2026-07-28 era (a stateless server that refuses `initialize`), %s: %s, then one call", transportNames[tr], what),
		names(cs), mHandshake, mFirst)
	for _, run := range []struct {
		t      *Table
		target clients.Target
	}{{legacy, e.targets[tr]}, {modern, e.modern[tr]}} {
		t := run.t
		for _, c := range cs {
			if _, _, err := firstOnce(c, run.target); err != nil {
				t.fail(c.Name, fmt.Errorf("warm-up: %w", err))
			}
		}
		k := firstConnects
		if e.quick {
			k = 5
		}
		// Connections alternate between the clients (in an order that
		// rotates), rather than running k in a row per client: the
		// machine's load drifts, and a spawn feels all of it.
		for rep := range e.reps {
			settle()
			hs, fs := map[string][]float64{}, map[string][]float64{}
			for i := range k {
				for j := range cs {
					c := cs[(i+j+rep)%len(cs)]
					if _, failed := t.Failures[c.Name]; failed {
						continue
					}
					h, f, err := firstOnce(c, run.target)
					if err != nil {
						t.fail(c.Name, err)
						continue
					}
					hs[c.Name], fs[c.Name] = append(hs[c.Name], h), append(fs[c.Name], f)
				}
			}
			for _, c := range cs {
				if _, failed := t.Failures[c.Name]; !failed && len(hs[c.Name]) == k {
					t.add(c.Name, mHandshake.Key, median(hs[c.Name]))
					t.add(c.Name, mFirst.Key, median(fs[c.Name]))
				}
			}
		}
	}
	return []*Table{legacy, modern}
}

// firstOnce connects, calls echo once and closes: milliseconds to the
// connected session and to the call's result. From nothing means no
// pooled TCP connection either: the idle connections net/http keeps for
// go-sdk and mcp-go (its DefaultTransport) are closed first, as mcpwire
// closes its own when its last session ends and the raw floor dials
// afresh, so that every client dials.
func firstOnce(c *clients.Client, target clients.Target) (connected, first float64, err error) {
	ctx, cancel := measureCtx()
	defer cancel()
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t.CloseIdleConnections()
	}
	t0 := time.Now()
	s, err := c.Connect(ctx, target)
	if err != nil {
		return 0, 0, err
	}
	defer s.Close()
	t1 := time.Since(t0)
	if err := s.Echo(ctx); err != nil {
		return 0, 0, err
	}
	t2 := time.Since(t0)
	return ms(t1), ms(t2), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// stateless: the concurrent workload against the stateless server over
// Streamable HTTP: 64 callers on one client, every POST carrying the
// era's _meta and headers, no session.
func (e *env) stateless(tr string) *Table {
	total := e.n(10000)
	return e.concOn(e.eraClients(tr), e.modern[tr], "stateless/"+tr,
		fmt.Sprintf("%d concurrent callers on one client, 2026-07-28 era (stateless), %s (%d calls per repetition)", concurrency, transportNames[tr], total), total)
}
