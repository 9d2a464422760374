package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// Relay carries what upstream servers ask of their client (sampling,
// elicitation in form and URL mode, roots) to the host whose request
// caused it. Its handlers go into the manager's client options (Apply),
// before the manager exists; the gateway it relays for is set by New
// (Options.Relay). The zero value is ready to use.
//
// Which host: for an upstream on 2026-07-28, the one whose request
// (tools/call, prompts/get, resources/read) the question belongs to; for
// an older one, whose requests do not say, the one with a request in
// flight to the asking server, the one that started last when several.
// The request travels with that host's request, in the host's era: a
// request of its own for hosts on 2025-11-25 and before, an input request
// of an input_required result for 2026-07-28 hosts (which then retry, and
// the gateway makes the upstream call again). An upstream on 2026-07-28
// asks by input requests; the mcp client turns them into the same handler
// calls, so they reach either kind of host the same way.
type Relay struct {
	mu sync.Mutex
	g  *Gateway
}

// Apply sets o's Sampling, Elicitation, ElicitationURL and Roots
// handlers to the relay's, so upstreams see those capabilities declared.
// Use it on manager.Options.Client before the manager starts.
func (r *Relay) Apply(o *mcp.ClientOptions) {
	o.Sampling = func(ctx context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
		var res mcp.CreateMessageResult
		return &res, r.forward(ctx, "sampling/createMessage", "sampling", req, &res)
	}
	elicit := func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		var res mcp.ElicitResult
		return &res, r.forward(ctx, "elicitation/create", "elicitation", req, &res)
	}
	o.Elicitation, o.ElicitationURL = elicit, elicit
	o.Roots = func(ctx context.Context) ([]mcp.Root, error) {
		var res struct {
			Roots []mcp.Root `json:"roots"`
		}
		return res.Roots, r.forward(ctx, "roots/list", "roots", nil, &res)
	}
}

func (r *Relay) gateway() *Gateway {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.g
}

func (r *Relay) attach(g *Gateway) {
	r.mu.Lock()
	r.g = g
	r.mu.Unlock()
}

// forward asks the host of the request the question belongs to (see
// Relay). It gives up when the upstream cancels its request (ctx) or the
// host's request ends. An answer the host cannot give (no request in
// flight, a capability it did not declare) is a JSON-RPC error the
// upstream gets.
func (r *Relay) forward(ctx context.Context, method, capability string, params, out any) error {
	origin, _ := mcp.OriginOf(ctx)
	g := r.gateway()
	if g == nil {
		return jsonrpc.NewError(jsonrpc.CodeInternalError, method+": the gateway is not serving a host")
	}
	// A 2026-07-28 upstream asks within the call the question belongs to,
	// so its handler's ctx is that call's and names the host exactly; an
	// older one sends a request of its own, which says nothing of the
	// call that caused it, and goes to the latest.
	hc, own := ctx.Value(hostCallKey{}).(*hostCall)
	if !own || hc.server != origin.Server {
		hc = g.latestCall(origin.Server)
	}
	if hc == nil {
		return jsonrpc.NewError(jsonrpc.CodeInvalidRequest, fmt.Sprintf("%s: no host request to server %q is in flight, so there is no host to ask", method, origin.Server))
	}
	if missing := hostLacks(hc.ctx, hc.ss, capability, params); missing != "" {
		return jsonrpc.NewError(jsonrpc.CodeMethodNotFound, fmt.Sprintf("%s: the host did not declare the %s capability", method, missing))
	}
	hctx, cancel := context.WithCancel(hc.ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	raw, err := hc.ss.Call(hctx, method, params)
	if errors.Is(err, server.ErrInputRequired) {
		// A 2026-07-28 host answers by retrying its request: this
		// round's upstream call ends here and runs again with the answer.
		hc.asked.Store(true)
		hc.cancel()
		return jsonrpc.NewError(jsonrpc.CodeInternalError, method+": the host answers on its retry; this request is cancelled")
	}
	if err != nil {
		var je *jsonrpc.Error
		if errors.As(err, &je) {
			return je
		}
		return jsonrpc.NewError(jsonrpc.CodeInternalError, fmt.Sprintf("%s: asking the host: %v", method, err))
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return jsonrpc.NewError(jsonrpc.CodeInternalError, fmt.Sprintf("%s: the host's answer: %v", method, err))
	}
	return nil
}

// hostLacks names the capability a host did not declare for a request
// ("" when it did): an older-era host in its handshake, a 2026-07-28 host
// in the request in flight (hctx), which would otherwise fail as a whole
// for an upstream's optional question. A URL-mode elicitation needs
// elicitation.url in either era.
func hostLacks(hctx context.Context, ss *server.Session, capability string, params any) string {
	modern, declared := server.ModernDeclares(hctx, capability)
	if modern && declared == nil {
		return capability
	}
	if !modern {
		raw := ss.ClientCapabilities()
		if len(raw) == 0 {
			return ""
		}
		var caps map[string]json.RawMessage
		if json.Unmarshal(raw, &caps) != nil {
			return capability
		}
		var ok bool
		if declared, ok = caps[capability]; !ok {
			return capability
		}
	}
	if req, isElicit := params.(*mcp.ElicitRequest); isElicit && req.Mode == mcp.ElicitModeURL {
		var modes map[string]json.RawMessage
		if json.Unmarshal(declared, &modes) != nil || modes["url"] == nil {
			return "elicitation.url"
		}
	}
	return ""
}

// hostCall is a host's request in flight to one upstream: where a request
// of that upstream is relayed.
type hostCall struct {
	ctx    context.Context
	cancel context.CancelFunc
	ss     *server.Session
	server string // the upstream called
	// asked is set when the host is to answer on a retry (2026-07-28):
	// the round ends there, which the call hooks report as such.
	asked atomic.Bool
}

// hostCallKey is the ctx key of the hostCall an upstream call runs for.
type hostCallKey struct{}

// askedOnRetry reports whether a relay ended the call's round to ask the
// host; nil (no relay) never did.
func (hc *hostCall) askedOnRetry() bool { return hc != nil && hc.asked.Load() }

// track records a host's request to serverName until untrack is called. The
// returned ctx is the request's, cancelled also by a relay that hands the
// host's answer to a retry. Only a relay looks the requests up: without
// one, nothing is recorded and ctx is returned as is (a context, a lock
// and a list entry per call saved, bench/NOTES.md "The gateway").
func (g *Gateway) track(ctx context.Context, ss *server.Session, serverName string) (context.Context, *hostCall) {
	if g.relay == nil {
		return ctx, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	hc := &hostCall{ctx: ctx, cancel: cancel, ss: ss, server: serverName}
	// The upstream call runs under the returned ctx, which carries hc to
	// the relay's handlers when the upstream asks within the call.
	ctx = context.WithValue(ctx, hostCallKey{}, hc)
	g.callMu.Lock()
	g.calls[serverName] = append(g.calls[serverName], hc)
	g.callMu.Unlock()
	return ctx, hc
}

// untrack ends what track started (nothing for a nil hc). The list is
// changed in place: every look at it holds callMu.
func (g *Gateway) untrack(serverName string, hc *hostCall) {
	if hc == nil {
		return
	}
	hc.cancel()
	g.callMu.Lock()
	defer g.callMu.Unlock()
	list := g.calls[serverName]
	if i := slices.Index(list, hc); i >= 0 {
		list = slices.Delete(list, i, i+1)
	}
	if len(list) == 0 {
		delete(g.calls, serverName)
		return
	}
	g.calls[serverName] = list
}

func (g *Gateway) latestCall(serverName string) *hostCall {
	g.callMu.Lock()
	defer g.callMu.Unlock()
	list := g.calls[serverName]
	if len(list) == 0 {
		return nil
	}
	return list[len(list)-1]
}

// upstreamError is how a failure of a server reaches the host: its
// JSON-RPC error as is, anything else (down, dead mid-request) as an
// internal error naming the server, with secrets blanked.
func (g *Gateway) upstreamError(serverName string, err error) error {
	var je *jsonrpc.Error
	if errors.As(err, &je) {
		return je
	}
	return jsonrpc.NewError(jsonrpc.CodeInternalError, fmt.Sprintf("server %q: %s", serverName, g.redactText(err.Error())))
}

func (g *Gateway) redactText(s string) string {
	if g.redact != nil {
		return g.redact(s)
	}
	return s
}
