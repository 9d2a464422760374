package main

import (
	"fmt"
	"io"
	"strings"
)

// The floor table (issue #37): each figure the issue names, set against
// its target, which is a multiple of the raw floor of the same run, a
// multiple of the message size, or a recorded allocation count.

// Allocations per call of mcpwire's concurrent workload as recorded in
// BENCHMARKS.md of the run of 2026-12-04 17:27 UTC (commit 84747db, "45 of
// 46"): the figures the hot-path work of #37 must not raise.
const (
	recordedConcAllocsStdio = 19.1
	recordedConcAllocsHTTP  = 64.7
	recordedConcAllocsSSE   = 69.8
)

// floorTarget is one row of the floor table.
type floorTarget struct {
	table  string // Table.ID
	metric Metric
	// what the target is: "floor" (a multiple of raw's median), "message"
	// (peak RSS under a multiple of the largest result survived), or
	// "max" (a fixed ceiling, held in limit).
	kind  string
	times float64 // the multiple, for floor and message
	limit float64 // the ceiling, for max
	note  string  // what the limit is, for max
}

var floorTargets = []floorTarget{
	{table: "conc/stdio", metric: mRate, kind: "floor", times: 0.6},
	{table: "conc/stdio", metric: mAllocs, kind: "max", limit: recordedConcAllocsStdio, note: "recorded"},
	{table: "conc/http", metric: mRate, kind: "floor", times: 0.95},
	{table: "conc/http", metric: mAllocs, kind: "max", limit: recordedConcAllocsHTTP, note: "recorded"},
	{table: "conc/sse", metric: mRate, kind: "floor", times: 0.95},
	{table: "conc/sse", metric: mAllocs, kind: "max", limit: recordedConcAllocsSSE, note: "recorded"},
	{table: "big/stdio", metric: mMBps, kind: "floor", times: 0.5},
	{table: "big/http", metric: mMBps, kind: "floor", times: 0.5},
	{table: "survive/stdio", metric: mPeak, kind: "message", times: 3},
	{table: "survive/http", metric: mPeak, kind: "message", times: 3},
	{table: "list/stdio", metric: mListMs, kind: "floor", times: 4},
	{table: "list/http", metric: mListMs, kind: "floor", times: 4},
	{table: "connect/stdio", metric: mConn20, kind: "floor", times: 1.3},
	{table: "connect/http", metric: mConn1, kind: "floor", times: 2},
}

// floorRow judges one target against the tables of the run; ok is false
// when the run has no figure for it.
type floorRow struct {
	figure, mine, floor, ratio, target string
	met, ok                            bool
}

func judgeFloor(ft floorTarget, t *Table) floorRow {
	r := floorRow{figure: fmt.Sprintf("%s: %s %s", ft.table, ft.metric.Head, arrow(ft.metric))}
	mine, ok := t.med("mcpwire", ft.metric.Key)
	if !ok {
		r.mine = "failed"
		return r
	}
	r.mine = fmt.Sprintf(ft.metric.Format, mine)
	switch ft.kind {
	case "floor":
		floor, ok := t.med("raw", ft.metric.Key)
		if !ok || floor == 0 {
			return r
		}
		r.floor = "raw " + fmt.Sprintf(ft.metric.Format, floor)
		r.ratio = fmt.Sprintf("%.2f× the floor", mine/floor)
		if ft.metric.Lower {
			r.target = fmt.Sprintf("≤ %.2g×", ft.times)
			r.met = mine <= ft.times*floor
		} else {
			r.target = fmt.Sprintf("≥ %.2g×", ft.times)
			r.met = mine >= ft.times*floor
		}
	case "message":
		largest, ok := t.med("mcpwire", mLargest.Key)
		if !ok || largest == 0 {
			return r
		}
		r.floor = fmt.Sprintf("message %.0f MiB", largest)
		if raw, ok := t.med("raw", ft.metric.Key); ok {
			r.floor += fmt.Sprintf(" (raw's peak %.0f MiB)", raw)
		}
		r.ratio = fmt.Sprintf("%.2f× the message", mine/largest)
		r.target = fmt.Sprintf("< %.2g×", ft.times)
		r.met = mine < ft.times*largest
	case "max":
		r.floor = fmt.Sprintf(ft.metric.Format+" (%s)", ft.limit, ft.note)
		r.ratio = fmt.Sprintf("%.2f× %s", mine/ft.limit, ft.note)
		r.target = "≤ 1×"
		r.met = mine <= ft.limit
	}
	r.ok = true
	return r
}

// tablesByID indexes the run's tables.
func (r *report) tablesByID() map[string]*Table {
	byID := map[string]*Table{}
	for _, t := range r.tables {
		byID[t.ID] = t
	}
	return byID
}

// writeFloor writes the floor table for the figures this run measured,
// and the soak verdicts when the soak ran.
func (r *report) writeFloor(w io.Writer) {
	byID := r.tablesByID()
	var rows []floorRow
	for _, ft := range floorTargets {
		if t := byID[ft.table]; t != nil {
			rows = append(rows, judgeFloor(ft, t))
		}
	}
	for _, t := range r.tables {
		if strings.HasPrefix(t.ID, "soak/") {
			rows = append(rows, soakFloorRow(t))
		}
	}
	if len(rows) == 0 {
		return
	}
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("## The floor\n\n")
	p("Issue #37's targets: mcpwire against the raw floor of the same run (or the message size, or the allocations recorded on %s), for each figure the issue names that this run measured. ", "2026-12-04")
	p("The 20-server connect goes through the manager, its name table included.\n\n")
	p("| figure | mcpwire | floor | mcpwire / floor | target | met |\n|---|---:|---:|---:|---:|:---:|\n")
	met, total := 0, 0
	for _, row := range rows {
		total++
		if !row.ok {
			p("| %s | %s | %s | | | ✗ |\n", row.figure, row.mine, row.floor)
			continue
		}
		if row.met {
			met++
		}
		p("| %s | %s | %s | %s | %s | %s |\n", row.figure, row.mine, row.floor, row.ratio, row.target, check(row.met))
	}
	p("\n%d of %d met.\n\n", met, total)
}
