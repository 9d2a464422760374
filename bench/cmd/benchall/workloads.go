package main

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
)

var (
	mP50        = Metric{Key: "p50-us", Head: "p50 µs", Lower: true, Bar: 1, Format: "%.1f"}
	mP99        = Metric{Key: "p99-us", Head: "p99 µs", Lower: true, Bar: 1, Format: "%.1f"}
	mAllocs     = Metric{Key: "allocs/call", Head: "allocs/call", Lower: true, Bar: 1.5, Format: "%.1f"}
	mBytes      = Metric{Key: "B/call", Head: "B/call", Lower: true, Bar: 1, Format: "%.0f"}
	mRate       = Metric{Key: "calls/s", Head: "calls/s", Bar: 1.5, Format: "%.0f"}
	mMBps       = Metric{Key: "MB/s", Head: "MB/s", Bar: 1, Format: "%.1f"}
	mBigB       = Metric{Key: "B/MB", Head: "B allocated per result byte", Lower: true, Format: "%.1f"}
	mListMs     = Metric{Key: "ms/list", Head: "ms/list", Lower: true, Bar: 1, Format: "%.2f"}
	mListA      = Metric{Key: "allocs/list", Head: "allocs/list", Lower: true, Format: "%.0f"}
	mConn1      = Metric{Key: "ms-1", Head: "1 server, ms", Lower: true, Bar: 1, Format: "%.2f"}
	mConn20     = Metric{Key: "ms-20", Head: "20 servers in parallel, ms", Lower: true, Bar: 1, Format: "%.1f"}
	concurrency = 64
	// bigSize is 16 MB rather than 16 MiB so that the frame (result plus
	// envelope) stays under go-sdk's 16 MiB stdio line limit and every
	// client gets a figure; the survival probe finds the limits.
	bigSize = 16_000_000
)

// seq: sequential tools/call of the echo tool; latency percentiles and
// allocations per call, measured around the loop with runtime.MemStats
// (the server is another process, so only the client's allocations count).
func (e *env) seq(tr string) *Table {
	n := e.n(map[bool]int{true: 3000, false: 2000}[tr == "stdio"])
	return e.seqOn(e.clientsFor(tr, true), e.targets[tr], "seq/"+tr,
		fmt.Sprintf("Sequential tools/call round trip, %s (%d calls per repetition)", transportNames[tr], n), n)
}

// seqOn runs the sequential workload against target.
func (e *env) seqOn(cs []*clients.Client, target clients.Target, id, title string, n int) *Table {
	t := newTable(id, title, names(cs), mP50, mP99, mAllocs, mBytes)
	ss := e.openAt(cs, target, t)
	defer closeAll(ss)
	e.warm(ss, t, e.n(300))
	durs := make([]time.Duration, n)
	e.interleave(cs, func(rep int, c *clients.Client) {
		s := ss[c.Name]
		if s == nil {
			return
		}
		ctx, cancel := measureCtx()
		defer cancel()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for i := range durs {
			t0 := time.Now()
			if err := s.Echo(ctx); err != nil {
				t.fail(c.Name, err)
				delete(ss, c.Name)
				s.Close()
				return
			}
			durs[i] = time.Since(t0)
		}
		runtime.ReadMemStats(&m1)
		t.add(c.Name, mAllocs.Key, float64(m1.Mallocs-m0.Mallocs)/float64(n))
		t.add(c.Name, mBytes.Key, float64(m1.TotalAlloc-m0.TotalAlloc)/float64(n))
		t.add(c.Name, mP50.Key, percentile(durs, 50))
		t.add(c.Name, mP99.Key, percentile(durs, 99))
	})
	return t
}

// warm runs k echo calls on every session.
func (e *env) warm(ss map[string]clients.Session, t *Table, k int) {
	for name, s := range ss {
		ctx, cancel := measureCtx()
		for range k {
			if err := s.Echo(ctx); err != nil {
				t.fail(name, fmt.Errorf("warm-up: %w", err))
				delete(ss, name)
				s.Close()
				break
			}
		}
		cancel()
	}
}

// conc: 64 goroutines calling echo on one connection; the floors instead
// keep 64 pre-encoded requests in flight.
func (e *env) conc(tr string) *Table {
	total := e.n(map[bool]int{true: 20000, false: 10000}[tr == "stdio"])
	return e.concOn(e.clientsFor(tr, true), e.targets[tr], "conc/"+tr,
		fmt.Sprintf("%d concurrent callers on one connection, %s (%d calls per repetition)", concurrency, transportNames[tr], total), total)
}

// concOn runs the concurrent workload against target.
func (e *env) concOn(cs []*clients.Client, target clients.Target, id, title string, total int) *Table {
	t := newTable(id, title, names(cs), mRate, mAllocs)
	ss := e.openAt(cs, target, t)
	defer closeAll(ss)
	for name, s := range ss {
		ctx, cancel := measureCtx()
		if err := runConcurrent(ctx, s, e.n(2000)); err != nil {
			t.fail(name, fmt.Errorf("warm-up: %w", err))
			delete(ss, name)
			s.Close()
		}
		cancel()
	}
	e.interleave(cs, func(rep int, c *clients.Client) {
		s := ss[c.Name]
		if s == nil {
			return
		}
		ctx, cancel := measureCtx()
		defer cancel()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		t0 := time.Now()
		err := runConcurrent(ctx, s, total)
		el := time.Since(t0)
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.fail(c.Name, err)
			delete(ss, c.Name)
			s.Close()
			return
		}
		t.add(c.Name, mRate.Key, float64(total)/el.Seconds())
		t.add(c.Name, mAllocs.Key, float64(m1.Mallocs-m0.Mallocs)/float64(total))
	})
	return t
}

func runConcurrent(ctx context.Context, s clients.Session, total int) error {
	if p, ok := s.(clients.Pipeliner); ok {
		return p.Pipeline(ctx, total, concurrency)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range concurrency {
		wg.Go(func() {
			for next.Add(1) <= int64(total) {
				if err := s.Echo(ctx); err != nil {
					once.Do(func() { first = err })
					return
				}
			}
		})
	}
	wg.Wait()
	return first
}

// big: one tools/call whose result is a 16 MiB text; MB/s of result.
func (e *env) big(tr string) *Table {
	cs := e.clientsFor(tr, true)
	size := bigSize
	if e.quick {
		size = 1 << 20
	}
	t := newTable("big/"+tr, fmt.Sprintf("One tool result of %s, %s (one call per repetition)", sizeName(size), transportNames[tr]),
		names(cs), mMBps, mBigB)
	ss := e.openAll(cs, tr, t)
	defer closeAll(ss)
	for name, s := range ss {
		ctx, cancel := measureCtx()
		if _, err := s.Big(ctx, size); err != nil {
			t.fail(name, fmt.Errorf("warm-up: %w", err))
			delete(ss, name)
			s.Close()
		}
		cancel()
	}
	e.interleave(cs, func(rep int, c *clients.Client) {
		s := ss[c.Name]
		if s == nil {
			return
		}
		ctx, cancel := measureCtx()
		defer cancel()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		t0 := time.Now()
		got, err := s.Big(ctx, size)
		el := time.Since(t0)
		runtime.ReadMemStats(&m1)
		if err != nil {
			t.fail(c.Name, err)
			return
		}
		if got < size*9/10 {
			t.fail(c.Name, fmt.Errorf("received %d bytes of text for a %d-byte result", got, size))
			return
		}
		t.add(c.Name, mMBps.Key, float64(size)/1e6/el.Seconds())
		t.add(c.Name, mBigB.Key, float64(m1.TotalAlloc-m0.TotalAlloc)/float64(size))
	})
	return t
}

// list: tools/list of 1,000 tools.
func (e *env) list(tr string) *Table {
	cs := e.clientsFor(tr, true)
	k := e.n(20)
	t := newTable("list/"+tr, fmt.Sprintf("tools/list of 1,000 tools, %s (%d lists per repetition)", transportNames[tr], k),
		names(cs), mListMs, mListA)
	ss := e.openAll(cs, tr, t)
	defer closeAll(ss)
	for name, s := range ss {
		ctx, cancel := measureCtx()
		for range 3 {
			if _, err := s.List(ctx); err != nil {
				t.fail(name, fmt.Errorf("warm-up: %w", err))
				delete(ss, name)
				s.Close()
				break
			}
		}
		cancel()
	}
	e.interleave(cs, func(rep int, c *clients.Client) {
		s := ss[c.Name]
		if s == nil {
			return
		}
		ctx, cancel := measureCtx()
		defer cancel()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		t0 := time.Now()
		for range k {
			if _, err := s.List(ctx); err != nil {
				t.fail(c.Name, err)
				return
			}
		}
		el := time.Since(t0)
		runtime.ReadMemStats(&m1)
		t.add(c.Name, mListMs.Key, float64(el.Microseconds())/1000/float64(k))
		t.add(c.Name, mListA.Key, float64(m1.Mallocs-m0.Mallocs)/float64(k))
	})
	return t
}

func sizeName(n int) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%1_000_000 == 0:
		return fmt.Sprintf("%d MB (%d bytes of JSON string)", n/1_000_000, n)
	}
	return fmt.Sprintf("%d bytes", n)
}
