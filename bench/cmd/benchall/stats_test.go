package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"
)

func TestStats(t *testing.T) {
	if m := median([]float64{3, 1, 2}); m != 2 {
		t.Errorf("median odd = %v", m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Errorf("median even = %v", m)
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median of nothing is not NaN")
	}
	if s := spread([]float64{90, 100, 110}); math.Abs(s-0.1) > 1e-9 {
		t.Errorf("spread = %v, want 0.1", s)
	}
	ds := []time.Duration{5, 1, 4, 2, 3, 6, 7, 8, 9, 10}
	for i := range ds {
		ds[i] *= time.Microsecond
	}
	if p := percentile(ds, 50); p != 5 {
		t.Errorf("p50 = %v", p)
	}
	if p := percentile(ds, 99); p != 10 {
		t.Errorf("p99 = %v", p)
	}
}

// The bar is judged against the best other client, in the figure's
// direction, never against a floor.
func TestBar(t *testing.T) {
	tb := newTable("conc/stdio", "t", []string{"mcpwire", "go-sdk", "mcp-go", "raw"}, mRate, mAllocs)
	for _, v := range []struct {
		c       string
		rate, a float64
	}{{"mcpwire", 300, 20}, {"go-sdk", 100, 40}, {"mcp-go", 250, 25}, {"raw", 1000, 0}} {
		tb.add(v.c, mRate.Key, v.rate)
		tb.add(v.c, mAllocs.Key, v.a)
	}
	r := &report{tables: []*Table{tb}}
	var out bytes.Buffer
	r.writeBar(&out)
	got := out.String()
	// 300/250 = 1.2x < 1.5 on rate; 25/20 = 1.25x < 1.5 on allocations.
	for _, want := range []string{"| 250 (mcp-go) | 1.20× | 1.5× | ✗ |", "| 25.0 (mcp-go) | 1.25× | 1.5× | ✗ |", "0 of 2 met"} {
		if !strings.Contains(got, want) {
			t.Errorf("bar lacks %q:\n%s", want, got)
		}
	}
}
