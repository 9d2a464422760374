package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// tableWith is a table with one sample per client for metric m.
func tableWith(id string, m Metric, values map[string]float64) *Table {
	var names []string
	for c := range values {
		names = append(names, c)
	}
	t := newTable(id, id, names, m)
	for c, v := range values {
		t.add(c, m.Key, v)
	}
	return t
}

func TestJudgeFloor(t *testing.T) {
	conc := floorTarget{table: "conc/stdio", metric: mRate, kind: "floor", times: 0.6}
	list := floorTarget{table: "list/stdio", metric: mListMs, kind: "floor", times: 4}
	allocs := floorTarget{table: "conc/http", metric: mAllocs, kind: "max", limit: 64.7, note: "recorded"}
	for _, c := range []struct {
		name   string
		ft     floorTarget
		values map[string]float64
		met    bool
	}{
		{"rate above 0.6x", conc, map[string]float64{"mcpwire": 61, "raw": 100}, true},
		{"rate below 0.6x", conc, map[string]float64{"mcpwire": 59, "raw": 100}, false},
		{"time within 4x", list, map[string]float64{"mcpwire": 4, "raw": 1}, true},
		{"time past 4x", list, map[string]float64{"mcpwire": 4.1, "raw": 1}, false},
		{"allocs at the recorded", allocs, map[string]float64{"mcpwire": 64.7, "raw": 1}, true},
		{"allocs above the recorded", allocs, map[string]float64{"mcpwire": 64.8, "raw": 1}, false},
	} {
		r := judgeFloor(c.ft, tableWith(c.ft.table, c.ft.metric, c.values))
		if !r.ok || r.met != c.met {
			t.Errorf("%s: ok %v met %v, want ok and met %v (%+v)", c.name, r.ok, r.met, c.met, r)
		}
	}
	r := judgeFloor(conc, tableWith("conc/stdio", mRate, map[string]float64{"raw": 100}))
	if r.ok || r.mine != "failed" {
		t.Errorf("mcpwire without a figure: %+v, want not ok and failed", r)
	}
}

func TestJudgeFloorMessage(t *testing.T) {
	ft := floorTarget{table: "survive/stdio", metric: mPeak, kind: "message", times: 3}
	for _, c := range []struct {
		peak float64
		met  bool
	}{{767, true}, {768, false}} {
		tb := newTable("survive/stdio", "", []string{"mcpwire", "raw"}, mLargest, mPeak)
		tb.add("mcpwire", mLargest.Key, 256)
		tb.add("mcpwire", mPeak.Key, c.peak)
		tb.add("raw", mPeak.Key, 999)
		r := judgeFloor(ft, tb)
		if !r.ok || r.met != c.met {
			t.Errorf("peak %v MiB for 256 MiB: ok %v met %v, want met %v", c.peak, r.ok, r.met, c.met)
		}
	}
}

func TestWriteFloorCounts(t *testing.T) {
	r := &report{tables: []*Table{
		tableWith("conc/stdio", mRate, map[string]float64{"mcpwire": 70, "raw": 100}),
		tableWith("big/stdio", mMBps, map[string]float64{"mcpwire": 10, "raw": 100}),
	}}
	var b bytes.Buffer
	r.writeFloor(&b)
	out := b.String()
	if !strings.Contains(out, "## The floor") || !strings.Contains(out, "1 of 3 met.") || !strings.Contains(out, "allocs/call ↓ | failed") {
		t.Errorf("floor table:\n%s", out)
	}
	var none bytes.Buffer
	(&report{}).writeFloor(&none)
	if none.Len() != 0 {
		t.Errorf("a run without those figures wrote a floor table:\n%s", none.String())
	}
}

func TestSoakFlat(t *testing.T) {
	flat := []soakSample{{100, 1000, 3}, {200, 1090, 3}, {300, 950, 3}}
	if h, g, ok := soakFlat(flat); !ok || math.Abs(h-9) > 1e-9 || g != 0 {
		t.Errorf("soakFlat(flat) = %v %v %v, want 9 0 true", h, g, ok)
	}
	growing := []soakSample{{100, 1000, 3}, {200, 1200, 3}}
	if _, _, ok := soakFlat(growing); ok {
		t.Error("a heap grown by 20% is flat")
	}
	leaking := []soakSample{{100, 1000, 3}, {200, 1000, 4}}
	if _, _, ok := soakFlat(leaking); ok {
		t.Error("goroutines grown from 3 to 4 are flat")
	}
	tb := newTable("soak/stdio", "", []string{"mcpwire"}, mSoakRate, mSoakHeapDrift, mSoakGorDrift)
	h, g, _ := soakFlat(growing)
	tb.add("mcpwire", mSoakHeapDrift.Key, h)
	tb.add("mcpwire", mSoakGorDrift.Key, g)
	if row := soakFloorRow(tb); !row.ok || row.met {
		t.Errorf("soak floor row for a growing heap: %+v", row)
	}
}

func TestServeURL(t *testing.T) {
	if u, ok := serveURL("mcpwire: serving at http://127.0.0.1:4321/mcp"); !ok || u != "http://127.0.0.1:4321/mcp" {
		t.Errorf("serveURL = %q %v", u, ok)
	}
	if _, ok := serveURL("mcpwire: serve: something else"); ok {
		t.Error("serveURL took a line without the URL")
	}
}

func TestGatewayGoals(t *testing.T) {
	seq := newTable("gw-seq/stdio", "", []string{routeDirect, routeServeStdio, routeServeHTTP, routeRelay, routeMCPProxy}, mP50)
	conc := newTable("gw-conc/stdio", "", seq.Clients, mRate)
	for c, v := range map[string][2]float64{
		routeDirect: {40, 60000}, routeServeStdio: {80, 45000}, routeServeHTTP: {150, 12000}, routeRelay: {65, 51000}, routeMCPProxy: {140, 3000},
	} {
		seq.add(c, mP50.Key, v[0])
		conc.add(c, mRate.Key, v[1])
	}
	var b bytes.Buffer
	(&report{tables: []*Table{seq, conc}}).writeGatewayGoals(&b)
	out := b.String()
	// Added p50 40 µs (met), 0.75x direct (met), p50 behind mcp-proxy
	// (not met), calls/s ahead (met). The relay's rows are the floor,
	// shown and not judged: +25 µs and 0.85x direct.
	if !strings.Contains(out, "+40.0 µs") || !strings.Contains(out, "3 of 4 met.") {
		t.Errorf("gateway goals:\n%s", out)
	}
	for _, want := range []string{"p50 added by the " + routeRelay + " ↓ | 65.0 µs | direct 40.0 µs | +25.0 µs | | |", "calls/s through the " + routeRelay + " ↑ | 51000 | direct 60000 | 0.85× direct | | |"} {
		if !strings.Contains(out, want) {
			t.Errorf("gateway goals lack the relay's row %q:\n%s", want, out)
		}
	}
}
