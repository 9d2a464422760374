package main

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
)

// The soak (issue #37): a million calls on one connection, 64 callers at a
// time, with the heap in use and the goroutine count sampled every tenth of
// the way. "Flat" means every sample is within soakTolerance of the first
// one (taken after the warm-up and the first tenth). It runs in a child
// process per client, so that nothing else lives in the heap it samples.

// soakCalls is the calls of one soak (-soak-calls); a tenth of it lies
// between two samples.
var soakCalls = 1_000_000

const (
	soakSamples   = 10
	soakTolerance = 0.10
	soakWarmup    = 10_000
)

var (
	mSoakRate      = Metric{Key: "soak-calls/s", Head: "calls/s", Format: "%.0f"}
	mSoakHeapDrift = Metric{Key: "heap-drift-%", Head: "heap in use, largest drift from the first sample %", Lower: true, Format: "%.1f"}
	mSoakGorDrift  = Metric{Key: "goroutine-drift-%", Head: "goroutines, largest drift %", Lower: true, Format: "%.1f"}
)

// soakSample is one sample of a soak child.
type soakSample struct {
	Calls      int     `json:"calls"`
	HeapKiB    float64 `json:"heapKiB"` // runtime.MemStats.HeapInuse after two GCs
	Goroutines int     `json:"goroutines"`
}

// soak is the child's side: it connects, warms up, and makes soakCalls
// calls, sampling after every tenth.
func soak(c *clients.Client, target clients.Target) childResult {
	var res childResult
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancel()
	s, err := c.Connect(ctx, target)
	if err != nil {
		res.Failure = "connect: " + clipErr(err)
		return res
	}
	defer s.Close()
	if err := runConcurrent(ctx, s, min(soakWarmup, soakCalls)); err != nil {
		res.Failure = "warm-up: " + clipErr(err)
		return res
	}
	step := max(1, soakCalls/soakSamples)
	t0 := time.Now()
	for done := 0; done < soakCalls; {
		k := min(step, soakCalls-done)
		if err := runConcurrent(ctx, s, k); err != nil {
			res.Failure = fmt.Sprintf("after %d calls: %s", done, clipErr(err))
			return res
		}
		done += k
		// Two collections: the first moves sync.Pool's contents to its
		// victim cache, the second frees them, so that the sample is what
		// the client retains rather than what it keeps for reuse.
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		res.Soak = append(res.Soak, soakSample{Calls: done, HeapKiB: float64(m.HeapInuse) / 1024, Goroutines: runtime.NumGoroutine()})
	}
	res.Calls = soakCalls
	res.Rate = float64(soakCalls) / time.Since(t0).Seconds()
	return res
}

// drift is the largest distance of a sample from the first one, as a
// percentage of the first.
func drift(xs []float64) float64 {
	if len(xs) == 0 || xs[0] == 0 {
		return math.NaN()
	}
	d := 0.0
	for _, x := range xs[1:] {
		d = max(d, math.Abs(x-xs[0])/xs[0])
	}
	return d * 100
}

// soakTable runs the soak once per client (the repetitions would multiply
// minutes), each in its own child, and tabulates the samples.
func (e *env) soakTable(tr string) *Table {
	cs := e.clientsFor(tr, false)
	t := newTable("soak/"+tr, fmt.Sprintf("Soak: %d calls on one connection (64 callers), %s; heap in use (after two GCs) and goroutines sampled every %d calls, in a child process per client; flat = every sample within %.0f%% of the first",
		soakCalls, transportNames[tr], soakCalls/soakSamples, soakTolerance*100), names(cs), mSoakRate, mSoakHeapDrift, mSoakGorDrift)
	samples := map[string][]soakSample{}
	for _, c := range cs {
		res, err := e.spawnChild("soak", c, e.targets[tr], 0, 2*time.Hour)
		if err == nil && res.Failure != "" {
			err = fmt.Errorf("%s", res.Failure)
		}
		if err != nil {
			t.fail(c.Name, err)
			continue
		}
		samples[c.Name] = res.Soak
		h, g, _ := soakFlat(res.Soak)
		t.add(c.Name, mSoakRate.Key, res.Rate)
		t.add(c.Name, mSoakHeapDrift.Key, h)
		t.add(c.Name, mSoakGorDrift.Key, g)
		e.logf("  soak %s %s: %s", tr, c.Name, soakVerdict(res.Soak))
	}
	t.Note = soakSampleTable(t.Clients, samples)
	return t
}

// soakSampleTable is the Markdown table of every sample: one row per
// sample, heap KiB and goroutines per client.
func soakSampleTable(order []string, samples map[string][]soakSample) string {
	var b strings.Builder
	b.WriteString("| calls |")
	n := 0
	for _, c := range order {
		fmt.Fprintf(&b, " %s heap KiB | %s goroutines |", c, c)
		n = max(n, len(samples[c]))
	}
	b.WriteString("\n|---:|")
	for range order {
		b.WriteString("---:|---:|")
	}
	for i := range n {
		calls := 0
		row := ""
		for _, c := range order {
			if i < len(samples[c]) {
				s := samples[c][i]
				calls = s.Calls
				row += fmt.Sprintf(" %.0f | %d |", s.HeapKiB, s.Goroutines)
			} else {
				row += " — | — |"
			}
		}
		fmt.Fprintf(&b, "\n| %d |%s", calls, row)
	}
	for _, c := range order {
		if xs := samples[c]; len(xs) > 0 {
			fmt.Fprintf(&b, "\n\n%s: %s.", c, soakVerdict(xs))
		}
	}
	return b.String()
}

// soakFlat reports whether heap and goroutines stayed within the tolerance.
func soakFlat(xs []soakSample) (heapDrift, gorDrift float64, flat bool) {
	var heap, gor []float64
	for _, s := range xs {
		heap, gor = append(heap, s.HeapKiB), append(gor, float64(s.Goroutines))
	}
	heapDrift, gorDrift = drift(heap), drift(gor)
	return heapDrift, gorDrift, heapDrift <= soakTolerance*100 && gorDrift <= soakTolerance*100
}

func soakVerdict(xs []soakSample) string {
	h, g, flat := soakFlat(xs)
	word := "flat"
	if !flat {
		word = "not flat"
	}
	return fmt.Sprintf("%s (heap within %.1f%%, goroutines within %.1f%% of the first sample)", word, h, g)
}

// soakFloorRow is the soak's line in the floor table: mcpwire flat.
func soakFloorRow(t *Table) floorRow {
	r := floorRow{figure: t.ID + ": heap and goroutines flat over the soak", target: fmt.Sprintf("within %.0f%%", soakTolerance*100)}
	h, ok1 := t.med("mcpwire", mSoakHeapDrift.Key)
	g, ok2 := t.med("mcpwire", mSoakGorDrift.Key)
	if !ok1 || !ok2 || math.IsNaN(h) || math.IsNaN(g) {
		r.mine = "failed"
		return r
	}
	r.mine = fmt.Sprintf("heap %.1f%%, goroutines %.1f%%", h, g)
	r.floor = "first sample"
	r.ratio = fmt.Sprintf("largest drift %.1f%%", max(h, g))
	r.met = max(h, g) <= soakTolerance*100
	r.ok = true
	return r
}
