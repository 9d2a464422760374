package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
)

// The idle workload (issue #37): what one more idle connection costs, at
// a thousand. A child opens idleBase connections, measures, opens more up
// to idleConns, measures again, and divides the difference by the added
// count. What only the process's first connections cost (the binary's code
// paged in, encoding caches, a shared HTTP connection) is in both
// measurements and so drops out; at twenty connections it did not.

// idleConns is how many connections an idle child holds at the end
// (-idle-conns); idleBase how many at the first measurement (-idle-base).
var (
	idleConns = 1000
	idleBase  = 10
)

// idleSamples is how many children measure idle memory per client and
// repetition. RSS moves in steps of the kernel's fault-around window
// (64 KiB) as the binary's pages are first touched; over 990 added
// connections a step is 0.06 KiB each, so one child per repetition is
// enough.
const idleSamples = 1

// idleMaxReps caps the idle workload's repetitions: a stdio child spawns a
// thousand server processes, about a minute per client, and one child's
// figure varies little (see idleSamples).
const idleMaxReps = 3

var (
	mRSS    = Metric{Key: "rss-KiB", Head: "RSS KiB per added conn", Lower: true, Bar: 1, Format: "%.1f"}
	mHeap   = Metric{Key: "heap-KiB", Head: "Go heap+stacks KiB per added conn", Lower: true, Bar: 1, Format: "%.2f"}
	mGorout = Metric{Key: "goroutines", Head: "goroutines per added conn", Lower: true, Format: "%.2f"}
)

// idle is the child's side: it opens the connections, each with one call,
// and reports what an added one holds while idle.
func idle(c *clients.Client, target clients.Target) (childResult, error) {
	var ss []clients.Session
	defer func() {
		for _, s := range ss {
			s.Close()
		}
	}()
	openUpTo := func(n int) error { return openSessions(&ss, n, "connection", c, target) }
	if err := openUpTo(idleBase); err != nil {
		return childResult{}, err
	}
	rss0, heap0, g0 := footprint()
	if err := openUpTo(idleConns); err != nil {
		return childResult{}, err
	}
	rss1, heap1, g1 := footprint()
	added := float64(idleConns - idleBase)
	return childResult{
		RSSKiB:    float64(rss1-rss0) / added,
		HeapKiB:   (float64(heap1) - float64(heap0)) / 1024 / added,
		Goroutine: float64(g1-g0) / added,
	}, nil
}

// openSessions connects c to target until *ss holds n sessions, each
// after one echo call; what names a session in errors ("connection").
func openSessions(ss *[]clients.Session, n int, what string, c *clients.Client, target clients.Target) error {
	for len(*ss) < n {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		s, err := c.Connect(ctx, target)
		if err != nil {
			cancel()
			return fmt.Errorf("%s %d: %w", what, len(*ss)+1, err)
		}
		*ss = append(*ss, s)
		err = s.Echo(ctx)
		cancel()
		if err != nil {
			return fmt.Errorf("%s %d: %w", what, len(*ss), err)
		}
	}
	return nil
}

// idleTables are the legacy era's table for tr and, over HTTP, the
// 2026-07-28 stateless era's.
func (e *env) idleTables(tr string) []*Table {
	cs := e.clientsFor(tr, false)
	cs = append(cs, clientsNamed(e.clientsFor(tr, true), "raw")...)
	out := []*Table{e.idleTable("idle/"+tr, transportNames[tr], cs, e.targets[tr])}
	if tr == "http" {
		var modern []*clients.Client
		for _, c := range cs {
			if c.Modern {
				modern = append(modern, c)
			}
		}
		out = append(out, e.idleTable("idle-2026/"+tr, transportNames[tr]+", 2026-07-28 era (stateless)", modern, e.modern[tr]))
	}
	return out
}

// idleTable measures the cost per added idle connection, idleSamples
// children per repetition per client, interleaved.
func (e *env) idleTable(id, what string, cs []*clients.Client, target clients.Target) *Table {
	samples := e.n(idleSamples)
	capped := *e
	capped.reps = min(e.reps, idleMaxReps)
	t := newTable(id, fmt.Sprintf("Memory per added idle connection (from %d to %d connections, each after one call), %s; in a child process, %d per client and repetition, %d repetitions", idleBase, idleConns, what, samples, capped.reps),
		names(cs), mRSS, mHeap, mGorout)
	for range samples {
		capped.interleave(cs, func(rep int, c *clients.Client) {
			if _, failed := t.Failures[c.Name]; failed {
				return
			}
			res, err := e.spawnChild("idle", c, target, 0, 10*time.Minute)
			if err != nil {
				t.fail(c.Name, err)
				return
			}
			t.add(c.Name, mRSS.Key, res.RSSKiB)
			t.add(c.Name, mHeap.Key, res.HeapKiB)
			t.add(c.Name, mGorout.Key, res.Goroutine)
		})
	}
	return t
}
