package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpwire/mcpwire/bench/clients"
)

// The gateway workload (issue #35): a call through `mcpwire serve`
// against the same call made directly, and through the other gateways
// that install here, bridging the same canned server. The host is always
// mcpwire's client, so that only the way to the server differs; every
// route is a row, measured in the same rotation.

// Route names, as the rows of the gateway tables.
const (
	routeDirect       = "direct"
	routeServeStdio   = "mcpwire serve --stdio"
	routeServeHTTP    = "mcpwire serve --listen"
	routeMCPProxy     = "mcp-proxy (npm)"
	routeSupergateway = "supergateway (npm)"
	routeMCPHub       = "mcp-hub (npm)"
	routeRelay        = "line relay (floor)"
)

// route is one way from the host to the canned server.
type route struct {
	name string
	// hostStdio says the host reaches the route over stdio (it spawns the
	// gateway); otherwise over HTTP.
	hostStdio bool
	// open starts what the route needs and returns the host's target and
	// the gateway process (nil when the host spawns it).
	open func(up clients.Target) (clients.Target, *gwProc, error)
}

// hostUsage says how the host is used on every route.
const hostUsage = "The host is mcpwire's client with default options but for the era, pinned to 2025-11-25 " +
	"(`ProtocolVersion: mcp.LatestLegacyProtocolVersion`: initialize, no `server/discover` probe first), the same on every route: " +
	"supergateway's HTTP-to-stdio bridge takes the probe for the session's start and then fails the initialize after it."

// gatewayUsage says how each route was set up, for BENCHMARKS.md.
var gatewayUsage = map[string]string{
	routeDirect:       "the host's client connects to the canned server itself (spawns it, or posts to it).",
	routeServeStdio:   "`mcpwire serve --stdio -- CANNED` (or `serve --stdio URL`), spawned by the host: one server served as is, over stdio.",
	routeServeHTTP:    "`mcpwire serve --listen 127.0.0.1:0 -- CANNED` (or `... URL`), the host over Streamable HTTP.",
	routeMCPProxy:     "npm `mcp-proxy` 6.7.19: `mcp-proxy --host 127.0.0.1 --port P --server stream -- CANNED`, the host over Streamable HTTP at /mcp (a server process per session, its default).",
	routeSupergateway: "npm `supergateway` 4.0.0: `--stdio CANNED --outputTransport streamableHttp --stateful --port P` (the host over Streamable HTTP at /mcp, a server per session); with an HTTP upstream `--streamableHttp URL`, spawned by the host over stdio.",
	routeRelay:        "`bench/cmd/linerelay CANNED`, spawned by the host: a process that copies bytes both ways and parses nothing. It is the floor of any gateway between a stdio host and a stdio server: one more process on the path, two more pipe crossings.",
	routeMCPHub:       "npm `mcp-hub` 4.2.1, an aggregating gateway: a config naming the canned server `canned`, `mcp-hub --port P --config FILE`; the host over the 2024-11-05 HTTP+SSE transport at /mcp (the one it serves), tools named `canned__echo`.",
}

// gatewayInstalls says which gateways were tried and did not install, for
// BENCHMARKS.md.
const gatewayInstalls = "TBXark's mcp-proxy (Go) could not be installed: the Go module proxy refuses github.com/TBXark/mcp-proxy (403, not available). " +
	"mcp-hub is the aggregating gateway that installs here (npm). The npm gateways are in `bench/node/package.json`, installed with `" + npmInstall + "`."

// serveURL recognises mcpwire serve's line naming its endpoint.
func serveURL(line string) (string, bool) {
	_, u, ok := strings.Cut(line, "serving at ")
	return strings.TrimSpace(u), ok
}

// upstreamArgs are a gateway's arguments naming the upstream: "-- CMD
// ARGS..." or the URL.
func upstreamArgs(up clients.Target) []string {
	if up.IsHTTP() {
		return []string{up.URL}
	}
	return append([]string{"--", up.Command}, up.Args...)
}

// routes are the ways to the canned server over upstream transport tr.
func (e *env) routes(tr string) []route {
	rs := []route{
		{name: routeDirect, hostStdio: tr == "stdio", open: func(up clients.Target) (clients.Target, *gwProc, error) { return up, nil, nil }},
		{name: routeServeStdio, hostStdio: true, open: func(up clients.Target) (clients.Target, *gwProc, error) {
			return clients.Target{Command: e.mcpwireBin, Args: append([]string{"serve", "--stdio"}, upstreamArgs(up)...)}, nil, nil
		}},
		{name: routeServeHTTP, open: func(up clients.Target) (clients.Target, *gwProc, error) {
			p, u, err := startGwProc(append([]string{e.mcpwireBin, "serve", "--listen", "127.0.0.1:0", "--no-auth"}, upstreamArgs(up)...), "", serveURL)
			return clients.Target{URL: u}, p, err
		}},
	}
	if tr == "stdio" {
		rs = append(rs, route{name: routeRelay, hostStdio: true, open: func(up clients.Target) (clients.Target, *gwProc, error) {
			if e.relayBin == "" {
				return clients.Target{}, nil, fmt.Errorf("the line relay was not built: %s", e.relayErr)
			}
			return clients.Target{Command: e.relayBin, Args: append([]string{up.Command}, up.Args...)}, nil, nil
		}})
		rs = append(rs, route{name: routeMCPProxy, open: func(up clients.Target) (clients.Target, *gwProc, error) {
			bin, err := nodeBin("mcp-proxy")
			if err != nil {
				return clients.Target{}, nil, err
			}
			port, err := freePort()
			if err != nil {
				return clients.Target{}, nil, err
			}
			u := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
			p, u, err := startGwProc(append([]string{bin, "--host", "127.0.0.1", "--port", fmt.Sprint(port), "--server", "stream", "--"}, append([]string{up.Command}, up.Args...)...), u, nil)
			return clients.Target{URL: u}, p, err
		}})
	}
	rs = append(rs, route{name: routeSupergateway, hostStdio: tr != "stdio", open: func(up clients.Target) (clients.Target, *gwProc, error) {
		bin, err := nodeBin("supergateway")
		if err != nil {
			return clients.Target{}, nil, err
		}
		if up.IsHTTP() {
			return clients.Target{Command: bin, Args: []string{"--streamableHttp", up.URL, "--logLevel", "none"}}, nil, nil
		}
		port, err := freePort()
		if err != nil {
			return clients.Target{}, nil, err
		}
		u := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
		cmdline := strings.Join(append([]string{up.Command}, up.Args...), " ")
		p, u, err := startGwProc([]string{bin, "--stdio", cmdline, "--outputTransport", "streamableHttp", "--stateful", "--port", fmt.Sprint(port), "--logLevel", "none"}, u, nil)
		return clients.Target{URL: u}, p, err
	}})
	rs = append(rs, route{name: routeMCPHub, open: func(up clients.Target) (clients.Target, *gwProc, error) {
		bin, err := nodeBin("mcp-hub")
		if err != nil {
			return clients.Target{}, nil, err
		}
		def := map[string]any{"command": up.Command, "args": up.Args}
		if up.IsHTTP() {
			def = map[string]any{"url": up.URL}
		}
		cfg, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"canned": def}})
		if err != nil {
			return clients.Target{}, nil, err
		}
		file := filepath.Join(e.dir, "mcp-hub-"+tr+".json")
		if err := os.WriteFile(file, cfg, 0o600); err != nil {
			return clients.Target{}, nil, err
		}
		port, err := freePort()
		if err != nil {
			return clients.Target{}, nil, err
		}
		u := fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
		p, u, err := startGwProc([]string{bin, "--port", fmt.Sprint(port), "--config", file}, u, nil)
		return clients.Target{URL: u, LegacySSE: true, ToolPrefix: "canned__"}, p, err
	}})
	return rs
}

// routeClients starts every route and returns it as a client of the
// tables: mcpwire's client connecting to the route's target. A route that
// does not start is a client whose connect fails with the reason.
func (e *env) routeClients(tr string) ([]*clients.Client, []*gwProc) {
	host := clients.MCPWire()
	var cs []*clients.Client
	var procs []*gwProc
	for _, r := range e.routes(tr) {
		target, p, err := r.open(e.targets[tr])
		target.PinLegacy = true
		if p != nil {
			procs = append(procs, p)
		}
		if err != nil {
			e.logf("  %s: %s", r.name, err)
		}
		c := &clients.Client{Name: r.name, HTTP: true, Usage: gatewayUsage[r.name],
			Connect: func(ctx context.Context, _ clients.Target) (clients.Session, error) {
				if err != nil {
					return nil, err
				}
				return host.Connect(ctx, target)
			}}
		cs = append(cs, c)
	}
	return cs, procs
}

// gateways runs the gateway workload with upstream transport tr: the
// sequential and the concurrent tables, and (over stdio) the sessions
// table.
func (e *env) gateways(tr string) []*Table {
	if e.mcpwireBin == "" {
		t := newTable("gw-seq/"+tr, "Gateways", nil, mP50)
		t.Note = "mcpwire was not built: " + e.mcpwireErr
		return []*Table{t}
	}
	cs, procs := e.routeClients(tr)
	defer func() {
		for _, p := range procs {
			p.stop()
		}
	}()
	up := "a stdio upstream (the canned server spawned by the gateway)"
	if tr != "stdio" {
		up = "an HTTP upstream (the canned server on loopback)"
	}
	n := e.n(2000)
	seq := e.seqOn(cs, clients.Target{}, "gw-seq/"+tr, fmt.Sprintf("Through a gateway, %s: sequential tools/call (%d calls per repetition), the host mcpwire's client", up, n), n)
	total := e.n(10000)
	conc := e.concOn(cs, clients.Target{}, "gw-conc/"+tr, fmt.Sprintf("Through a gateway, %s: %d concurrent callers on one host session (%d calls per repetition)", up, concurrency, total), total)
	out := []*Table{seq, conc}
	for _, t := range out {
		t.Base, t.FloorName, t.RowHead = routeServeHTTP, routeDirect, "route"
		t.Note = "Rows are routes from the host to the server; \"vs\" columns divide by `mcpwire serve --listen` and by the direct call. " +
			"The allocations are the host's. See \"The gateway\" above for the goals."
	}
	if tr == "stdio" {
		out = append(out, e.gatewaySessions(tr))
	}
	return out
}

var (
	mGwSessions = Metric{Key: "sessions", Head: "sessions held", Format: "%.0f"}
	mGwRSS      = Metric{Key: "rss-MiB-per-1000", Head: "gateway RSS MiB per 1,000 sessions", Lower: true, Format: "%.1f"}
)

// gatewaySessions opens idleConns idle host sessions (each after one call)
// on one `mcpwire serve --listen` and reports the gateway's RSS per 1,000
// added sessions, from idleBase to idleConns, once per repetition with a
// fresh gateway.
func (e *env) gatewaySessions(tr string) *Table {
	t := newTable("gw-idle/"+tr, fmt.Sprintf("Idle sessions through `mcpwire serve --listen` (stdio upstream): the gateway process's RSS from %d to %d host sessions (2025-11-25 era, each after one call), per 1,000 added", idleBase, idleConns),
		[]string{routeServeHTTP}, mGwSessions, mGwRSS)
	t.Base, t.FloorName, t.RowHead = routeServeHTTP, routeDirect, "route"
	host := clients.MCPWire()
	for range e.reps {
		settle()
		held, perK, err := e.sessionsOnce(host, e.targets[tr])
		if err != nil {
			t.fail(routeServeHTTP, err)
			return t
		}
		t.add(routeServeHTTP, mGwSessions.Key, float64(held))
		t.add(routeServeHTTP, mGwRSS.Key, perK)
	}
	return t
}

func (e *env) sessionsOnce(host *clients.Client, up clients.Target) (held int, mibPerK float64, err error) {
	p, u, err := startGwProc(append([]string{e.mcpwireBin, "serve", "--listen", "127.0.0.1:0", "--no-auth"}, upstreamArgs(up)...), "", serveURL)
	if err != nil {
		return 0, 0, err
	}
	defer p.stop()
	var ss []clients.Session
	defer func() {
		for _, s := range ss {
			s.Close()
		}
	}()
	openUpTo := func(n int) error { return openSessions(&ss, n, "session", host, clients.Target{URL: u}) }
	if err := openUpTo(idleBase); err != nil {
		return 0, 0, err
	}
	rss0, err := p.rssKiB()
	if err != nil {
		return 0, 0, err
	}
	if err := openUpTo(idleConns); err != nil {
		return 0, 0, err
	}
	rss1, err := p.rssKiB()
	if err != nil {
		return 0, 0, err
	}
	return len(ss), float64(rss1-rss0) / 1024 / float64(idleConns-idleBase) * 1000, nil
}
