package main

import (
	"fmt"
	"io"
	"strings"
)

// Metric is one figure of a table.
type Metric struct {
	Key  string
	Head string // column heading, with its unit
	// Lower says lower is better (latency, allocations, memory).
	Lower bool
	// Bar is how much better than the best other client mcpwire must be
	// (1 = no worse); 0 means the figure is not judged.
	Bar float64
	// Format prints a value.
	Format string
}

// Table is one workload over one transport: samples per client and metric,
// one sample per repetition (one child per repetition for idle memory).
type Table struct {
	ID        string // short name for the raw output, e.g. "seq/stdio"
	Title     string
	Note      string
	Metrics   []Metric
	Clients   []string
	Samples   map[string]map[string][]float64 // client -> metric key -> samples
	Failures  map[string]string               // client -> why it has no figure
	Extra     map[string]map[string]string    // client -> metric key -> text instead of numbers
	FloorName string                          // the floor ratios are taken to ("raw")
	Base      string                          // the row the first ratios are taken to ("mcpwire")
	RowHead   string                          // what a row is ("client")
}

func newTable(id, title string, clients []string, metrics ...Metric) *Table {
	return &Table{
		ID: id, Title: title, Metrics: metrics, Clients: clients,
		Samples:   make(map[string]map[string][]float64),
		Failures:  make(map[string]string),
		Extra:     make(map[string]map[string]string),
		FloorName: "raw",
		Base:      "mcpwire",
		RowHead:   "client",
	}
}

func (t *Table) add(client, key string, v float64) {
	m := t.Samples[client]
	if m == nil {
		m = make(map[string][]float64)
		t.Samples[client] = m
	}
	m[key] = append(m[key], v)
}

func (t *Table) fail(client string, err error) {
	if _, ok := t.Failures[client]; !ok {
		t.Failures[client] = err.Error()
	}
}

func (t *Table) text(client, key, s string) {
	m := t.Extra[client]
	if m == nil {
		m = make(map[string]string)
		t.Extra[client] = m
	}
	m[key] = s
}

func (t *Table) med(client, key string) (float64, bool) {
	xs := t.Samples[client][key]
	if len(xs) == 0 {
		return 0, false
	}
	return median(xs), true
}

// writeRaw writes every sample in the Go benchmark format, so that
// benchstat can read the file (one line per sample).
func (t *Table) writeRaw(w io.Writer) {
	for _, c := range t.Clients {
		n := 0
		for _, m := range t.Metrics {
			n = max(n, len(t.Samples[c][m.Key]))
		}
		name := "Benchmark" + strings.ReplaceAll(strings.ReplaceAll(t.ID, "/", "_"), "-", "_") + "/client=" + c
		for i := range n {
			fmt.Fprintf(w, "%s 1", name)
			for _, m := range t.Metrics {
				xs := t.Samples[c][m.Key]
				if i < len(xs) {
					fmt.Fprintf(w, " %g %s", xs[i], unitOf(m))
				}
			}
			fmt.Fprintln(w)
		}
	}
}

// unitOf is a benchstat unit: no spaces.
func unitOf(m Metric) string {
	return strings.NewReplacer(" ", "-", "/", "/", "(", "", ")", "").Replace(m.Key)
}
