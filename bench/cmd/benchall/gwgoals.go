package main

import (
	"fmt"
	"io"
	"slices"
)

// The gateway goals of issue #35: under 50 µs added to p50 on a stdio
// upstream, at least 0.7× the direct throughput, and ahead of every other
// gateway measured (each against mcpwire serve reached the same way: over
// stdio or over HTTP).

const (
	gwAddedP50Max   = 50.0 // µs
	gwMinThroughput = 0.7
)

// otherGateways are the rows that are neither direct nor mcpwire serve.
var otherGateways = []string{routeMCPProxy, routeSupergateway, routeMCPHub}

// serveRowFor is the mcpwire serve row reached the way gateway g is
// reached over upstream transport tr: supergateway bridges an HTTP
// upstream to stdio, every other gateway serves HTTP.
func serveRowFor(g, tr string) string {
	if g == routeSupergateway && tr != "stdio" {
		return routeServeStdio
	}
	return routeServeHTTP
}

func (r *report) writeGatewayGoals(w io.Writer) {
	byID := r.tablesByID()
	var rows []floorRow
	for _, tr := range []string{"stdio", "http"} {
		seq, conc := byID["gw-seq/"+tr], byID["gw-conc/"+tr]
		if seq == nil || conc == nil {
			continue
		}
		// Added p50 and the throughput ratio: serve reached as the
		// direct call is (stdio host for a stdio upstream, HTTP for HTTP).
		serve := routeServeStdio
		if tr != "stdio" {
			serve = routeServeHTTP
		}
		row := floorRow{figure: fmt.Sprintf("gw-seq/%s: p50 added by `%s` ↓", tr, serve)}
		if v, ok := seq.med(serve, mP50.Key); !ok {
			row.mine = "failed"
		} else if d, ok := seq.med(routeDirect, mP50.Key); ok {
			row.mine, row.floor = fmt.Sprintf("%.1f µs", v), fmt.Sprintf("direct %.1f µs", d)
			row.ratio = fmt.Sprintf("+%.1f µs", v-d)
			row.ok = true
			if tr == "stdio" {
				row.target = fmt.Sprintf("< %.0f µs", gwAddedP50Max)
				row.met = v-d < gwAddedP50Max
			} else {
				row.target, row.met = "(shown)", true
			}
		}
		rows = append(rows, row)
		row = floorRow{figure: fmt.Sprintf("gw-conc/%s: calls/s through `%s` ↑", tr, serve)}
		if v, ok := conc.med(serve, mRate.Key); !ok {
			row.mine = "failed"
		} else if d, ok := conc.med(routeDirect, mRate.Key); ok && d > 0 {
			row.mine, row.floor = fmt.Sprintf("%.0f", v), fmt.Sprintf("direct %.0f", d)
			row.ratio = fmt.Sprintf("%.2f× direct", v/d)
			row.target = fmt.Sprintf("≥ %.1f×", gwMinThroughput)
			row.met, row.ok = v/d >= gwMinThroughput, true
		}
		rows = append(rows, row)
		if tr == "stdio" {
			rows = append(rows, relayFloorRows(seq, conc)...)
		}
		// Ahead of every other gateway, on p50 and on calls/s.
		for _, g := range otherGateways {
			if !slices.Contains(seq.Clients, g) {
				continue
			}
			mine := serveRowFor(g, tr)
			for _, pair := range []struct {
				t *Table
				m Metric
			}{{seq, mP50}, {conc, mRate}} {
				row := floorRow{figure: fmt.Sprintf("%s: %s %s, `%s` against %s", pair.t.ID, pair.m.Head, arrow(pair.m), mine, g)}
				v, ok1 := pair.t.med(mine, pair.m.Key)
				o, ok2 := pair.t.med(g, pair.m.Key)
				switch {
				case !ok1:
					row.mine = "failed"
				case !ok2:
					// The other gateway failed or is not installed: it
					// cannot be beaten here, and it says why in its table.
					row.mine, row.floor = fmt.Sprintf(pair.m.Format, v), g+": no figure (see its table)"
					row.ratio, row.target = "not measured", "(shown)"
				default:
					adv := v / o
					if pair.m.Lower {
						adv = o / v
					}
					row.mine, row.floor = fmt.Sprintf(pair.m.Format, v), fmt.Sprintf(pair.m.Format, o)
					row.ratio, row.target = fmt.Sprintf("%.2f× ahead", adv), "ahead (> 1×)"
					row.met, row.ok = adv > 1, true
				}
				rows = append(rows, row)
			}
		}
	}
	if t := byID["gw-idle/stdio"]; t != nil {
		row := floorRow{figure: "gw-idle/stdio: gateway RSS per 1,000 idle sessions ↓", target: "(shown)"}
		if v, ok := t.med(routeServeHTTP, mGwRSS.Key); ok {
			n, _ := t.med(routeServeHTTP, mGwSessions.Key)
			row.mine, row.floor, row.ratio = fmt.Sprintf("%.1f MiB", v), fmt.Sprintf("%.0f sessions held", n), "—"
			row.ok, row.met = true, true
		} else {
			row.mine = "failed"
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return
	}
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("## The gateway\n\n")
	p("The line relay rows are the floor of the stdio goals: `bench/cmd/linerelay` copies bytes between the host and the canned server and parses nothing, so what it adds is one more process on the path, which every gateway pays before doing any work of its own.\n\n")
	p("Issue #35's goals for `mcpwire serve`, the host being mcpwire's client in every row: the p50 it adds on a stdio upstream, its throughput at %d callers against the direct call, and its lead over every other gateway measured, each compared with `mcpwire serve` reached the same way (over stdio or over HTTP). %s\n\n", concurrency, gatewayInstalls)
	p("| figure | mcpwire serve | against | ratio | target | met |\n|---|---:|---:|---:|---:|:---:|\n")
	met, total := 0, 0
	for _, row := range rows {
		if row.target == "(shown)" {
			p("| %s | %s | %s | %s | | |\n", row.figure, row.mine, row.floor, row.ratio)
			continue
		}
		total++
		if !row.ok {
			p("| %s | %s | %s | | %s | ✗ |\n", row.figure, row.mine, row.floor, row.target)
			continue
		}
		if row.met {
			met++
		}
		p("| %s | %s | %s | %s | %s | %s |\n", row.figure, row.mine, row.floor, row.ratio, row.target, check(row.met))
	}
	p("\n%d of %d met.\n\n", met, total)
}

// relayFloorRows are the shown rows of the line relay over a stdio
// upstream: the p50 it adds to the direct call and its throughput against
// the direct call's, the floor under the two stdio goals.
func relayFloorRows(seq, conc *Table) []floorRow {
	if !slices.Contains(seq.Clients, routeRelay) {
		return nil
	}
	p50 := floorRow{figure: "gw-seq/stdio: p50 added by the " + routeRelay + " ↓", target: "(shown)", mine: "failed"}
	if v, ok := seq.med(routeRelay, mP50.Key); ok {
		if d, ok := seq.med(routeDirect, mP50.Key); ok {
			p50.mine, p50.floor, p50.ratio = fmt.Sprintf("%.1f µs", v), fmt.Sprintf("direct %.1f µs", d), fmt.Sprintf("+%.1f µs", v-d)
			p50.ok, p50.met = true, true
		}
	}
	rate := floorRow{figure: "gw-conc/stdio: calls/s through the " + routeRelay + " ↑", target: "(shown)", mine: "failed"}
	if v, ok := conc.med(routeRelay, mRate.Key); ok {
		if d, ok := conc.med(routeDirect, mRate.Key); ok && d > 0 {
			rate.mine, rate.floor, rate.ratio = fmt.Sprintf("%.0f", v), fmt.Sprintf("direct %.0f", d), fmt.Sprintf("%.2f× direct", v/d)
			rate.ok, rate.met = true, true
		}
	}
	return []floorRow{p50, rate}
}
