package main

import (
	"fmt"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
)

const parallelServers = 20

// connect: spawn (for stdio) + handshake + first tools/list, for one
// server (the median of five in a row) and for twenty in parallel. A
// client with ConnectMany (mcpwire: its manager) is measured through it.
func (e *env) connect(tr string) *Table {
	cs := e.clientsFor(tr, true)
	if len(cs) > 0 && cs[0].Name == "mcpwire" {
		cs = append([]*clients.Client{cs[0], clients.MCPWireDirect()}, cs[1:]...)
	}
	what := "spawn + handshake + first tools/list"
	if tr != "stdio" {
		what = "handshake + first tools/list (the server is already running)"
	}
	t := newTable("connect/"+tr, fmt.Sprintf("Connect: %s, %s", what, transportNames[tr]), names(cs), mConn1, mConn20)
	for _, c := range cs {
		if _, err := e.connectOnce(c, tr); err != nil {
			t.fail(c.Name, fmt.Errorf("warm-up: %w", err))
		}
	}
	e.interleave(cs, func(rep int, c *clients.Client) {
		if _, failed := t.Failures[c.Name]; failed {
			return
		}
		var ds []float64
		for range 5 {
			d, err := e.connectOnce(c, tr)
			if err != nil {
				t.fail(c.Name, err)
				return
			}
			ds = append(ds, d)
		}
		t.add(c.Name, mConn1.Key, median(ds))
		settle()
		d, err := e.connectMany(c, tr, parallelServers)
		if err != nil {
			t.fail(c.Name, err)
			return
		}
		t.add(c.Name, mConn20.Key, d)
	})
	return t
}

// connectOnce returns milliseconds from nothing to a listed server; the
// close afterwards is not timed.
func (e *env) connectOnce(c *clients.Client, tr string) (float64, error) {
	if c.ConnectMany != nil {
		return e.connectMany(c, tr, 1)
	}
	ctx, cancel := measureCtx()
	defer cancel()
	t0 := time.Now()
	s, err := c.Connect(ctx, e.targets[tr])
	if err != nil {
		return 0, err
	}
	defer s.Close()
	if _, err := s.List(ctx); err != nil {
		return 0, err
	}
	return float64(time.Since(t0).Microseconds()) / 1000, nil
}

// connectMany connects n servers at once, each on its own goroutine (the
// way a host starts its configured servers), and returns the milliseconds
// until the last one listed its tools.
func (e *env) connectMany(c *clients.Client, tr string, n int) (float64, error) {
	ctx, cancel := measureCtx()
	defer cancel()
	if c.ConnectMany != nil {
		t0 := time.Now()
		closer, err := c.ConnectMany(ctx, e.targets[tr], n)
		el := time.Since(t0)
		if err != nil {
			return 0, err
		}
		closer.Close()
		return float64(el.Microseconds()) / 1000, nil
	}
	ss := make([]clients.Session, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := range n {
		wg.Go(func() {
			s, err := c.Connect(ctx, e.targets[tr])
			if err != nil {
				errs[i] = err
				return
			}
			ss[i] = s
			_, errs[i] = s.List(ctx)
		})
	}
	wg.Wait()
	el := time.Since(t0)
	for _, s := range ss {
		if s != nil {
			s.Close()
		}
	}
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return float64(el.Microseconds()) / 1000, nil
}
