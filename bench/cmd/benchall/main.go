// Command benchall runs every benchmark workload through mcpwire, the
// official go-sdk, mcp-go and two floors, against the same canned server,
// and writes BENCHMARKS.md. See bench/README.md.
//
//	cd bench && go run ./cmd/benchall -o ../BENCHMARKS.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/bench/clients"
	"github.com/mcpwire/mcpwire/bench/serverproc"
)

var workloadOrder = []string{"seq", "conc", "big", "survive", "list", "connect", "idle", "flood", "storm", "first", "stateless", "flood-rss", "soak", "gw"}

// defaultWorkloads are those a run without -only runs: the soak and the
// gateways take long, and the gateways need installs (see README.md).
var defaultWorkloads = workloadOrder[:len(workloadOrder)-2]

// modernWorkloads need the canned server of the 2026-07-28 era.
var modernWorkloads = []string{"first", "stateless", "idle"}

func main() {
	out := flag.String("o", "", "write the report to this file (default: standard output)")
	reps := flag.Int("reps", 5, "repetitions of each measurement")
	only := flag.String("only", "", "comma-separated workloads to run ("+strings.Join(workloadOrder, ",")+"); default all")
	transports := flag.String("transports", "stdio,http,sse", "comma-separated transports: stdio, http (JSON replies), sse (SSE replies; seq, conc and stateless only)")
	which := flag.String("clients", "", "comma-separated clients to run (default all): mcpwire, go-sdk, mcp-go, raw, cat")
	quick := flag.Bool("quick", false, "tiny counts, to check the harness (figures not comparable)")
	rawOut := flag.String("raw", "", "also write the samples in benchstat format to this file")
	notes := flag.String("notes", "NOTES.md", "a Markdown file appended to the report (findings written by hand); missing is fine")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run (use -clients to profile one client)")
	memprofile := flag.String("memprofile", "", "write an allocation profile at the end of the run")
	flag.IntVar(&idleConns, "idle-conns", idleConns, "connections an idle child holds at its second measurement (the judged figures use the default)")
	flag.IntVar(&idleBase, "idle-base", idleBase, "connections an idle child holds at its first measurement")
	flag.IntVar(&soakCalls, "soak-calls", soakCalls, "calls of the soak workload per client and transport")
	flag.DurationVar(&floodDuration, "flood-duration", floodDuration, "how long the flood-rss workload floods each client (10m is the soak)")
	flag.IntVar(&floodRSSCap, "flood-rss-cap", floodRSSCap, "flood-rss stops a client whose RSS passes this many MiB")
	// Child mode (internal): see child.go.
	child := flag.String("child", "", "internal: run one child measurement (survive, idle, flood-rss)")
	childClient := flag.String("client", "", "internal: the child's client")
	childServer := flag.String("server", "", "internal: the stdio server binary")
	childURL := flag.String("url", "", "internal: the HTTP endpoint")
	childMax := flag.Int("max", 256<<20, "internal: largest result to probe")
	childModern := flag.Bool("modern", false, "internal: the server speaks only the 2026-07-28 era")
	flag.Parse()
	if floodDuration <= 0 || floodRSSCap < 1 {
		fmt.Fprintf(os.Stderr, "benchall: -flood-duration %s, -flood-rss-cap %d: want both positive\n", floodDuration, floodRSSCap)
		os.Exit(2)
	}
	if idleBase < 1 || idleConns <= idleBase {
		fmt.Fprintf(os.Stderr, "benchall: -idle-base %d, -idle-conns %d: want 1 <= base < conns\n", idleBase, idleConns)
		os.Exit(2)
	}
	if soakCalls < soakSamples {
		fmt.Fprintf(os.Stderr, "benchall: -soak-calls %d: want at least %d\n", soakCalls, soakSamples)
		os.Exit(2)
	}

	if *child != "" {
		t := clients.Target{Command: *childServer, URL: *childURL, Modern: *childModern}
		if t.Modern && !t.IsHTTP() {
			t.Args = serverproc.ModernArgs
		}
		if err := runChild(*child, *childClient, t, *childMax); err != nil {
			fmt.Fprintln(os.Stderr, "benchall:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*out, *reps, *only, *transports, *which, *quick, *rawOut, *notes, *cpuprofile, *memprofile); err != nil {
		fmt.Fprintln(os.Stderr, "benchall:", err)
		os.Exit(1)
	}
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func run(out string, reps int, only, transports, which string, quick bool, rawOut, notesPath, cpuprofile, memprofile string) error {
	if reps < 1 {
		return fmt.Errorf("-reps %d: want at least 1", reps)
	}
	if quick {
		floodDuration = min(floodDuration, 2*time.Second)
		soakCalls = min(soakCalls, 20_000)
		idleConns, idleBase = min(idleConns, 50), min(idleBase, 5)
	}
	works := defaultWorkloads
	if only != "" {
		works = split(only)
		for _, w := range works {
			if !slices.Contains(workloadOrder, w) {
				return fmt.Errorf("-only: unknown workload %q (have %s)", w, strings.Join(workloadOrder, ", "))
			}
		}
	}
	trs := split(transports)
	for _, tr := range trs {
		if _, ok := transportNames[tr]; !ok {
			return fmt.Errorf("-transports: unknown transport %q (have stdio, http, sse)", tr)
		}
	}
	all := clients.All()
	if which != "" {
		var picked []*clients.Client
		for _, n := range split(which) {
			c, err := findClient(n)
			if err != nil {
				return fmt.Errorf("-clients: %w", err)
			}
			picked = append(picked, c)
		}
		all = picked
	}
	dir, err := os.MkdirTemp("", "benchall-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	start := time.Now()
	e := &env{reps: reps, quick: quick, clients: all, log: os.Stderr, targets: map[string]clients.Target{}, modern: map[string]clients.Target{}}
	e.logf("building the canned server…")
	if e.bin, err = serverproc.Build(context.Background(), dir); err != nil {
		return err
	}
	e.dir = dir
	if slices.Contains(works, "gw") {
		e.logf("building the mcpwire command…")
		if e.mcpwireBin, err = serverproc.BuildMCPWire(context.Background(), dir); err != nil {
			e.mcpwireErr = err.Error()
		}
		if e.relayBin, err = serverproc.BuildRelay(context.Background(), dir); err != nil {
			e.relayErr = err.Error()
		}
		for _, name := range []string{"mcp-proxy", "supergateway", "mcp-hub"} {
			if _, err := nodeBin(name); err != nil {
				e.logf("gw: %s; its rows will say so", err)
			}
		}
	}
	e.targets["stdio"] = clients.Target{Command: e.bin}
	e.modern["stdio"] = clients.Target{Command: e.bin, Args: serverproc.ModernArgs, Modern: true}
	needModern := slices.ContainsFunc(works, func(w string) bool { return slices.Contains(modernWorkloads, w) })
	for _, tr := range []string{"http", "sse"} {
		if !slices.Contains(trs, tr) {
			continue
		}
		for _, modern := range []bool{false, true} {
			if modern && !needModern {
				continue
			}
			srv, err := serverproc.StartHTTP(e.bin, tr == "sse", modern)
			if err != nil {
				return err
			}
			defer srv.Stop()
			if modern {
				e.modern[tr] = clients.Target{URL: srv.URL, Modern: true}
			} else {
				e.targets[tr] = clients.Target{URL: srv.URL}
			}
		}
	}
	if memprofile != "" {
		// Every allocation, so that a per-call count can be read off.
		runtime.MemProfileRate = 1
	}
	if cpuprofile != "" {
		f, err := create(cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}

	var tables []*Table
	for _, w := range works {
		for _, tr := range trs {
			if tr == "sse" && w != "seq" && w != "conc" && w != "stateless" {
				continue
			}
			if tr != "stdio" && (w == "flood" || w == "storm" || w == "flood-rss") {
				continue
			}
			if tr == "stdio" && w == "stateless" {
				continue
			}
			e.logf("%s over %s…", w, tr)
			t0 := time.Now()
			var t *Table
			var more []*Table // a workload's further tables (first: the second era)
			switch w {
			case "seq":
				t = e.seq(tr)
			case "conc":
				t = e.conc(tr)
			case "big":
				t = e.big(tr)
			case "survive":
				t = e.surviveTable(tr)
			case "list":
				t = e.list(tr)
			case "connect":
				t = e.connect(tr)
			case "idle":
				ts := e.idleTables(tr)
				t, more = ts[0], ts[1:]
			case "soak":
				t = e.soakTable(tr)
			case "gw":
				ts := e.gateways(tr)
				t, more = ts[0], ts[1:]
			case "flood":
				t = e.flood(tr)
			case "storm":
				t = e.storm(tr)
			case "flood-rss":
				t = e.floodRSSTable(tr)
			case "first":
				ts := e.first(tr)
				t, more = ts[0], ts[1:]
			case "stateless":
				t = e.stateless(tr)
			}
			e.logf("  done in %s", time.Since(t0).Round(time.Millisecond))
			for _, t := range append([]*Table{t}, more...) {
				for c, f := range t.Failures {
					e.logf("  %s: %s failed: %s", t.ID, c, f)
				}
				tables = append(tables, t)
			}
		}
	}
	if memprofile != "" {
		f, err := create(memprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			return err
		}
	}
	r := &report{started: start, elapsed: time.Since(start), reps: reps, clients: all, tables: tables, quick: quick,
		command: "cd bench && go run ./cmd/benchall " + strings.Join(os.Args[1:], " ")}
	if b, err := os.ReadFile(notesPath); err == nil {
		r.notes = string(b)
	}
	w := os.Stdout
	if out != "" {
		f, err := create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	r.write(w)
	if rawOut != "" {
		f, err := create(rawOut)
		if err != nil {
			return err
		}
		defer f.Close()
		for _, t := range tables {
			t.writeRaw(f)
		}
	}
	return nil
}

// create creates an output file, and its directory if need be: results/,
// where the README puts them, is not in a fresh clone.
func create(path string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return os.Create(path)
}
