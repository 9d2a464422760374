package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// DefaultPageSize is how many tools one tools/list page holds.
const DefaultPageSize = 100

// Options configure a Gateway. The zero value is usable.
type Options struct {
	// Name and Version form the gateway's serverInfo; defaults "mcpwire"
	// and "dev".
	Name, Version string
	// Instructions are sent to hosts in the handshake when not empty.
	Instructions string
	// Separator joins prefix and tool name; default DefaultSeparator.
	Separator string
	// Prefixes overrides the prefix of the named servers ("" lists that
	// server's tools under their own names). Others use their server name.
	Prefixes map[string]string
	// NoPrefix lists every tool under its own name; New fails when two
	// servers have a tool of the same name.
	NoPrefix bool
	// Servers, when not empty, limits the gateway to the named servers'
	// tools (mcpwire serve --server NAME).
	Servers []string
	// PageSize splits tools/list into pages; default DefaultPageSize.
	PageSize int
	// Redact, when set, rewrites every string the gateway sends a host
	// (results, notifications, relayed requests, errors: each string of
	// the JSON, which stays valid) and the text of every upstream failure,
	// in the audit log too. The CLI blanks the secrets of its config with
	// it, so that upstream credentials reach no host. It must be cheap on
	// text that holds nothing to rewrite and return that text unchanged.
	Redact func(string) string
	// Warn receives what goes wrong without stopping the gateway: a tool
	// left out of the list because its name is taken. Nil discards.
	Warn func(error)
	// Notice receives one line, naming the server, each time an upstream
	// goes down, stops (its manager breaker opened: the line says when
	// the gateway tries it again) and comes back. Its text holds the
	// upstream's failure, which may quote what the server printed: pass
	// it through Redact. Nil discards.
	Notice func(string)
	// Revive says how the gateway brings back a server whose manager
	// breaker opened (see ReviveOptions); nil means the defaults.
	Revive *ReviveOptions
	// Hooks observe every routed tools/call (see CallHook).
	Hooks []CallHook
	// Audit, when set, writes a line per routed call (see AuditOptions).
	Audit *AuditOptions
	// Relay, when set, is the relay whose handlers the manager's client
	// options carry (Relay.Apply): upstreams' sampling, elicitation and
	// roots requests then reach the hosts. Without it upstreams are told
	// the gateway's client has none of those capabilities.
	Relay *Relay
	// MaxInFlight bounds the requests one host session runs at once,
	// over stdio and HTTP alike: past it, a host's request is answered
	// at once with error -32000 ("server busy: N requests already in
	// flight on this session") and goes to no upstream. Zero means
	// DefaultMaxInFlight; a negative value, no bound.
	MaxInFlight int
}

// DefaultMaxInFlight is Options.MaxInFlight's default.
const DefaultMaxInFlight = server.DefaultMaxInFlight

// Gateway serves a manager's servers as one MCP server. Serve it with
// ServeLines (one host on a pair of streams) or Handler (Streamable HTTP,
// any number of hosts); Close ends every session. The manager stays the
// caller's to close, after the gateway.
type Gateway struct {
	m       *manager.Manager
	srv     *server.Server
	namer   namer
	only    []string
	warn    func(error)
	redact  func(string) string
	hooks   []CallHook
	metrics *metrics
	revive  *reviver

	relay *Relay

	mu          sync.Mutex
	routes      map[string]route
	cat         *catalog
	upstreams   map[string]upstream
	httpClosers []func()
	httpDrains  []func() // each handler's EndListenStreams (drain.go)
	draining    bool

	subMu sync.Mutex
	subs  map[route]map[subHolder]bool // an upstream's resource -> the hosts that hold it
	// watched are the older-era sessions holding subscriptions, each with
	// a goroutine that lets go of them when the session ends.
	watched map[*server.Session]bool

	callMu sync.Mutex
	calls  map[string][]*hostCall // server -> host requests in flight to it, oldest first

	changed     chan struct{}   // one pending "list again", coalescing bursts
	ctx         context.Context // of the gateway's own requests; ends on Close
	stop        context.CancelFunc
	done        chan struct{}
	unsubscribe func()
	loop        sync.WaitGroup
	closeOnce   sync.Once
}

// New builds a gateway over m, which should be started (manager.Start).
// It fails when names collide in the first listing, so that a
// misconfiguration shows at start-up and not as a missing tool later.
func New(m *manager.Manager, opts *Options) (*Gateway, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Name == "" {
		o.Name = "mcpwire"
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	if o.Separator == "" {
		o.Separator = DefaultSeparator
	}
	if o.PageSize <= 0 {
		o.PageSize = DefaultPageSize
	}
	if o.Warn == nil {
		o.Warn = func(error) {}
	}
	g := &Gateway{
		m:         m,
		namer:     namer{sep: o.Separator, noPrefix: o.NoPrefix, prefixes: o.Prefixes},
		only:      o.Servers,
		redact:    o.Redact,
		warn:      o.Warn,
		hooks:     slices.Clone(o.Hooks),
		changed:   make(chan struct{}, 1),
		done:      make(chan struct{}),
		relay:     o.Relay,
		cat:       &catalog{},
		upstreams: map[string]upstream{},
		subs:      map[route]map[subHolder]bool{},
		watched:   map[*server.Session]bool{},
		calls:     map[string][]*hostCall{},
	}
	g.ctx, g.stop = context.WithCancel(context.Background())
	g.metrics = newMetrics(g)
	g.hooks = append(g.hooks, g.metrics.hook)
	if o.Audit != nil && o.Audit.Out != nil {
		a := &auditLog{opts: *o.Audit, redact: o.Redact, warn: o.Warn}
		if a.redact == nil {
			a.redact = func(s string) string { return s }
		}
		g.hooks = append(g.hooks, a.hook)
	}
	g.srv = server.NewServer(&server.Options{
		Name: o.Name, Version: o.Version, Instructions: o.Instructions, PageSize: o.PageSize,
		// Tools are declared up front: they may come later (a server
		// still connecting), and hosts only listen for list_changed when
		// the capability says it may come. The rest follows the upstreams
		// (syncCatalog).
		Capabilities: json.RawMessage(`{"tools":{"listChanged":true}}`),
		// A host's session may last for millions of calls: nothing it
		// sends is kept.
		NoRecord: true,
		// Upstream credentials stay the gateway's own: whatever an
		// upstream echoes back (a tool that prints its environment)
		// reaches no host with them.
		Redact: o.Redact,
		// Zero and negative mean what they mean to the core.
		MaxInFlight: o.MaxInFlight,
	})
	if errs := g.sync(); len(errs) > 0 {
		g.stop()
		_ = g.srv.Close()
		var ce CollisionError
		for _, err := range errs {
			if nc, ok := err.(*NameCollision); ok {
				ce.Collisions = append(ce.Collisions, nc)
			}
		}
		if len(ce.Collisions) == len(errs) {
			return nil, &ce
		}
		return nil, fmt.Errorf("gateway: listing the tools: %w", errors.Join(errs...))
	}
	g.route()
	for _, err := range g.syncCatalog(g.ctx) {
		g.warn(err)
	}
	if g.relay != nil {
		g.relay.attach(g)
	}
	g.revive = newReviver(g.ctx, m, o.Revive, o.Notice)
	g.unsubscribe = m.Subscribe(g.onEvent)
	g.revive.seed()
	g.loop.Add(1)
	go g.resyncLoop()
	return g, nil
}

// onEvent asks for a new listing when a server's tools may have changed.
// It never blocks: one pending request stands for any number.
func (g *Gateway) onEvent(e manager.Event) {
	switch e.Kind {
	case manager.Reconnecting, manager.BreakerOpen:
		g.revive.onEvent(e)
		return
	case manager.Connected, manager.Closed:
		g.revive.onEvent(e)
	case manager.ToolsChanged, manager.ResourcesChanged, manager.PromptsChanged:
	case manager.Notification:
		g.relayNotification(e)
		return
	default:
		return
	}
	select {
	case g.changed <- struct{}{}:
	default:
	}
}

func (g *Gateway) resyncLoop() {
	defer g.loop.Done()
	for {
		select {
		case <-g.done:
			return
		case <-g.changed:
			for _, err := range append(g.sync(), g.syncCatalog(g.ctx)...) {
				g.warn(err)
			}
		}
	}
}

// sync lists the manager's tools again and hands them to the server core,
// which announces list_changed when the merged list differs.
func (g *Gateway) sync() []error {
	entries := g.m.Tools()
	if len(g.only) > 0 {
		entries = slices.DeleteFunc(slices.Clone(entries), func(e manager.ToolEntry) bool { return !slices.Contains(g.only, e.Server) })
	}
	g.mu.Lock()
	prev := g.routes
	g.mu.Unlock()
	merged, errs := g.namer.merge(entries, prev)
	tools := make([]server.Tool, 0, len(merged))
	routes := make(map[string]route, len(merged))
	for _, t := range merged {
		st, err := coreTool(t.name, t.entry.Tool)
		if err != nil {
			errs = append(errs, fmt.Errorf("server %q tool %q: %w", t.route.server, t.route.tool, err))
			continue
		}
		tools = append(tools, st)
		routes[t.name] = t.route
	}
	g.mu.Lock()
	g.routes = routes
	g.mu.Unlock()
	if g.metrics != nil {
		// Before the host hears of the change: a scrape after the new
		// list shows no series of a tool it no longer has.
		g.metrics.forget(prev, routes)
	}
	g.srv.SetTools(tools, g.callTool)
	return errs
}

// coreTool is an upstream tool as the gateway lists it: the same JSON
// under the gateway's name.
func coreTool(name string, t mcp.Tool) (server.Tool, error) {
	t.Name = name
	b, err := json.Marshal(t)
	if err != nil {
		return server.Tool{}, err
	}
	var st server.Tool
	if err := json.Unmarshal(b, &st); err != nil {
		return server.Tool{}, err
	}
	return st, nil
}

// routedCall is what a routed tools/call needs besides the request, in
// one allocation rather than one each: the hooks' view of the call and
// their ends, the upstream call's options, the upstream's raw result.
type routedCall struct {
	call     Call
	observed observedCall
	opts     mcp.CallOptions
	upRaw    seam.RawToolResult
}

// callTool routes one tools/call to its server. Progress from the server
// goes back to the host under the host's token; the host's cancellation
// ends ctx, which cancels the upstream call. A server that is down or
// fails the call gives an isError result naming the server, so only its
// own tools are affected; an upstream JSON-RPC error is passed on as one.
func (g *Gateway) callTool(ctx context.Context, req *server.ToolRequest) (*server.ToolResult, error) {
	g.mu.Lock()
	r, ok := g.routes[req.Name]
	g.mu.Unlock()
	if !ok {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, fmt.Sprintf("unknown tool %q", req.Name))
	}
	rc := &routedCall{call: Call{Server: r.server, Tool: r.tool, Host: hostOf(req.Session), Arguments: req.Arguments, Meta: req.Meta}}
	call := &rc.call
	upCtx := g.startCall(ctx, call, &rc.observed)
	rc.opts = mcp.CallOptions{Meta: call.UpstreamMeta, OnProgress: func(_ context.Context, p mcp.ProgressNotification) {
		var total float64
		if p.Total != nil {
			total = *p.Total
		}
		_ = req.Progress(ctx, p.Progress, total, p.Message)
	}}
	upCtx, hc := g.track(upCtx, req.Session, r.server)
	defer g.untrack(r.server, hc)
	// The result is passed on as the upstream sent it: its texts need
	// only be checked, not made into strings (an error's are, for the
	// hooks).
	rc.upRaw.Skim = true
	upCtx = seam.WithRawToolResult(upCtx, &rc.upRaw)
	res, err := g.m.CallServerTool(upCtx, r.server, r.tool, req.Arguments, &rc.opts)
	if err != nil && errors.Is(err, manager.ErrBreakerOpen) {
		// Not sent upstream: the call may be made again once a try
		// brought the server back.
		var again bool
		if again, err = g.revive.callFailed(upCtx, r.server, err); again {
			res, err = g.m.CallServerTool(upCtx, r.server, r.tool, req.Arguments, &rc.opts)
		}
	}
	rc.observed.finish(ctx, res, err, hc.askedOnRetry(), g.redact)
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			return nil, je
		}
		if g.redact != nil {
			return server.ErrorResult(g.redact(err.Error())), nil
		}
		return nil, err
	}
	if out, ok := passOn(rc.upRaw.Bytes); ok {
		return server.RawToolResult(out), nil
	}
	if rc.upRaw.Skimmed {
		// Not expected: what the skim takes (plain member names, each
		// once), passOn takes too. Should it not, the result is encoded
		// from a decoding of its own, which the skim left undone.
		res = &mcp.CallToolResult{}
		if err := json.Unmarshal(rc.upRaw.Bytes, res); err != nil {
			return nil, fmt.Errorf("server %q tool %q: decoding its result: %w", r.server, r.tool, err)
		}
	}
	delete(res.Meta, server.MetaServerInfo) // the gateway speaks for itself
	raw, err := json.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("server %q tool %q: encoding its result: %w", r.server, r.tool, err)
	}
	return server.RawToolResult(raw), nil
}

// ServeLines serves one host on JSON lines (mcpwire serve --stdio) until
// in ends, ctx ends or the gateway is closed. It closes in and out.
//
// A host that stops reading out does not keep ServeLines or Close from
// returning: when in ends, the calls in flight get 2 s to be answered; a
// write still blocked then, or when ctx ends or the gateway is closed, is
// given up, and out is closed, which interrupts the write when out is an
// OS pipe in the runtime's poller (as os.Pipe makes them) or a network
// connection. Otherwise the goroutine writing stays until out's Write
// returns, which is the caller's to bring about (closing what is behind
// out), or the process's exit.
//
// The host's lines go through package transport's stream, not the server
// core's own (which stays separate from the client's framing for tests):
// it writes a reply with one system call from the replying goroutine and
// reuses its buffers, where the core's copies every line through a reader
// goroutine.
func (g *Gateway) ServeLines(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	return g.srv.Serve(ctx, transport.NewStream(in, out, closeBoth{in, out}))
}

// closeBoth closes the host's two streams, which unblocks a pending read
// and write.
type closeBoth struct {
	in  io.Closer
	out io.Closer
}

func (c closeBoth) Close() error { return errors.Join(c.out.Close(), c.in.Close()) }

// Close ends every session and stops following the manager. It does not
// close the manager.
func (g *Gateway) Close() error {
	g.closeOnce.Do(func() {
		if g.relay != nil {
			g.relay.attach(nil)
		}
		g.unsubscribe()
		g.stop()
		close(g.done)
		g.loop.Wait()
		g.revive.close()
		g.mu.Lock()
		closers := g.httpClosers
		g.mu.Unlock()
		for _, c := range closers {
			c()
		}
		_ = g.srv.Close()
	})
	return nil
}
