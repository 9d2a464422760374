package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// ProtocolAuto is the ClientOptions.ProtocolVersion that negotiates the
// era, the default ("" means the same): the client probes with
// server/discover and speaks the 2026-07-28 revision to a server that
// answers it, and opens with initialize (offering LatestLegacyProtocolVersion)
// when the server does not.
const ProtocolAuto = "auto"

// probeBound is how long a probe over stdio waits alone, after the server
// read it (when the stream can tell, see seam.InputPending), before
// initialize is sent after it. A legacy server may drop server/discover
// without a word; it still answers initialize. The probe is not given up
// then: a modern server that was merely slow answers it, and initialize
// decides only if it succeeds. A variable for tests.
var probeBound = 500 * time.Millisecond

// negotiation is what the era negotiation knows about the server: the
// kind of transport and the key under which the era is remembered (see
// transport.Identifier), set by Connect.
type negotiation struct {
	kind, key string
}

// negotiationOf describes t for the era negotiation.
func negotiationOf(t transport.Transport) negotiation {
	if id, ok := t.(transport.Identifier); ok {
		kind, key := id.ServerIdentity()
		return negotiation{kind: kind, key: key}
	}
	return negotiation{}
}

// open starts the session under the protocol pin of o: the modern era,
// a legacy revision, or (ProtocolAuto, "") whichever the server speaks.
func (c *Client) open(ctx context.Context, o *ClientOptions, n negotiation) error {
	pin := o.ProtocolVersion
	switch {
	case isModernVersion(pin):
		return pinnedRefusal(pin, true, c.discover(ctx, o.ClientInfo, pin))
	case pin != "" && pin != ProtocolAuto:
		return pinnedRefusal(pin, false, c.handshake(ctx, o.ClientInfo, pin))
	case n.kind == "sse":
		// The legacy HTTP+SSE transport has no modern era.
		return c.handshake(ctx, o.ClientInfo, LatestLegacyProtocolVersion)
	}
	if n.kind == "" {
		// A bare stream: HTTP streams can set their version, stdio and
		// pipes cannot; only the latter need the probe bound.
		if _, isHTTP := c.stream.(seam.ProtocolVersionSetter); isHTTP {
			n.kind = "http"
		} else {
			n.kind = "stdio"
		}
	}
	version := ModernProtocolVersion
	if v, ok := eras.get(n.key); ok {
		if !isModernVersion(v) {
			err := c.handshake(ctx, o.ClientInfo, LatestLegacyProtocolVersion)
			if err == nil || !refusedByServer(err) {
				return err
			}
			// The server changed since: it refuses initialize, so it
			// may be modern now. Negotiate afresh.
			eras.forget(n.key)
			if perr := c.probe(ctx, o.ClientInfo, ModernProtocolVersion, n); perr != nil {
				return fmt.Errorf("%w (and server/discover after it: %v)", err, perr)
			}
			return nil
		}
		version = v
	}
	return c.probe(ctx, o.ClientInfo, version, n)
}

// pinnedRefusal makes the server's refusal of a pinned revision a
// *ProtocolVersionError, so that a caller can tell it from a server that
// could not be reached: without the pin, the client would have
// negotiated another era. err is returned as it is otherwise.
func pinnedRefusal(pin string, modern bool, err error) error {
	var pv *ProtocolVersionError
	if err == nil || errors.As(err, &pv) || !refusedByServer(err) {
		return err
	}
	pv = &ProtocolVersionError{Offered: pin, Err: err, modern: modern}
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		pv.Supported = refusedVersions(rpcErr, rpcErr.Code)
	}
	return pv
}

// probe sends server/discover under version and goes on in the era its
// answer shows: the modern era on a DiscoverResult or a modern error (a
// -32022 refusal is retried once with the newest version both speak),
// initialize on anything else a server says. Over stdio, no answer
// within probeBound sends initialize as well (see probeBound).
func (c *Client) probe(ctx context.Context, info Implementation, version string, n negotiation) error {
	pctx, cancel := context.WithCancel(ctx)
	defer cancel() // a probe initialize overtook is given up
	m := &modernSession{hello: &modernHello{info: info, caps: *c.caps}}
	if err := c.prepareDiscover(m, version); err != nil {
		return err
	}
	if n.kind != "stdio" {
		res, err := c.callDiscover(pctx, m)
		return c.settle(ctx, m, version, discoverOutcome{res, err}, n)
	}
	// The probe runs on this goroutine, whose stack is already grown,
	// rather than on a new one that would grow its own (and touch the
	// runtime's tables of every frame to copy it); only a server that
	// stays silent past the bound costs a goroutine, the watch's.
	w := &probeWatch{c: c, ctx: ctx, info: info, n: n, giveUp: cancel, raced: make(chan raceOutcome, 1)}
	w.mu.Lock()
	w.timer = time.AfterFunc(probeBound, w.fire)
	w.mu.Unlock()
	res, err := c.callDiscover(pctx, m)
	out := discoverOutcome{res, err}
	if !w.finish() {
		if errors.Is(out.err, jsonrpc.ErrTimeout) && ctx.Err() == nil {
			return c.legacyAfterSilentProbe(ctx, info, n, out.err)
		}
		return c.settle(ctx, m, version, out, n)
	}
	race := <-w.raced
	if race.decided {
		return race.err
	}
	if out.err != nil && !isModernError(out.err) && refusedVersions(out.err, CodeUnsupportedProtocolVersion) == nil {
		return fmt.Errorf("%w (server/discover before it: %v)", race.err, out.err)
	}
	if out.err == nil && highestCommon(out.res.SupportedVersions) == "" {
		return race.err
	}
	return c.settle(ctx, m, version, out, n)
}

// probeWatch bounds a probe over stdio: when the server has read it and
// stays silent for probeBound, initialize is sent after it (see
// probeBound). Its fields but the constant ones are guarded by mu.
type probeWatch struct {
	c      *Client
	ctx    context.Context // the caller's, for initialize
	info   Implementation
	n      negotiation
	giveUp context.CancelFunc // ends the probe once initialize decided
	raced  chan raceOutcome   // initialize's outcome, once it was sent

	mu        sync.Mutex
	timer     *time.Timer
	done      bool // the probe has its answer: no initialize any more
	racing    bool // initialize was sent
	wasUnread bool // the server had not read the probe at the last check
}

// raceOutcome is what initialize, sent after a silent probe, came to.
type raceOutcome struct {
	err error
	// decided says err (nil: the session is open) is the connect's
	// outcome; otherwise initialize was refused and the probe's answer
	// decides.
	decided bool
}

// fire runs when the bound passed without an answer.
func (w *probeWatch) fire() {
	w.mu.Lock()
	if w.done {
		w.mu.Unlock()
		return
	}
	// A server that has not read the probe yet is still starting (a
	// runtime loading, a package being fetched): its silence says
	// nothing yet. The bound counts from when it read the probe.
	if unread := w.c.probeUnread(); unread || w.wasUnread {
		w.wasUnread = unread
		w.timer.Reset(probeBound)
		w.mu.Unlock()
		return
	}
	w.racing = true
	w.mu.Unlock()
	w.raced <- w.initialize()
}

// initialize sends initialize while the probe waits. A server that
// answers it is spoken to in the legacy era (a dual-era server scopes the
// process to it); one that refuses it decides by its answer to the probe.
func (w *probeWatch) initialize() raceOutcome {
	raw, err := w.c.initialize(w.ctx, w.info, LatestLegacyProtocolVersion)
	if err != nil {
		return raceOutcome{err: err}
	}
	defer w.giveUp() // a probe initialize overtook
	if err := w.c.finishHandshake(w.ctx, raw, LatestLegacyProtocolVersion); err != nil {
		return raceOutcome{err: err, decided: true}
	}
	eras.put(w.n.key, w.c.init.ProtocolVersion)
	return raceOutcome{decided: true}
}

// finish ends the watch once the probe returned, and reports whether
// initialize was sent, whose outcome then arrives on raced.
func (w *probeWatch) finish() (racing bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	w.timer.Stop()
	return w.racing
}

// probeUnread reports whether the server has yet to read what was written
// to it, when the stream can tell (seam.InputPending).
func (c *Client) probeUnread() bool {
	p, ok := c.stream.(seam.InputPending)
	if !ok {
		return false
	}
	n, ok := p.PendingInput()
	return ok && n > 0
}

// discoverOutcome is the answer to one server/discover.
type discoverOutcome struct {
	res *discoverResult
	err error
}

// prepareDiscover readies m and the stream for a server/discover under
// version.
func (c *Client) prepareDiscover(m *modernSession, version string) error {
	if err := m.encodeMeta(version, ""); err != nil {
		return err
	}
	// The stream's wire format depends on the version (the HTTP headers),
	// and server/discover is already sent under it.
	c.setStreamVersion(version)
	return nil
}

// settle goes on from the probe's answer out.
func (c *Client) settle(ctx context.Context, m *modernSession, version string, out discoverOutcome, n negotiation) error {
	if out.err == nil {
		if common := highestCommon(out.res.SupportedVersions); slices.Contains(out.res.SupportedVersions, version) || common != "" {
			if !slices.Contains(out.res.SupportedVersions, version) {
				// Asked under a version it does not list: ask again.
				return c.modernAfterProbe(ctx, m, version, common, n, nil)
			}
			return c.modernOpened(m, version, out.res, n)
		}
		// A server/discover answer without a modern version in common:
		// a legacy server that answers unknown methods with a result,
		// or a dual-era one that speaks no modern version of ours.
		return c.legacyAfterProbe(ctx, m.hello.info, n)
	}
	if supported := refusedVersions(out.err, CodeUnsupportedProtocolVersion); supported != nil {
		next := highestCommon(supported)
		if next == "" {
			if slices.ContainsFunc(supported, IsSupportedProtocolVersion) {
				return c.legacyAfterProbe(ctx, m.hello.info, n)
			}
			var rpcErr *jsonrpc.Error
			errors.As(out.err, &rpcErr)
			return &ProtocolVersionError{Offered: version, Supported: supported, Err: rpcErr, modern: true}
		}
		return c.modernAfterProbe(ctx, m, version, next, n, out.err)
	}
	if isModernError(out.err) || !refusedByServer(out.err) {
		return out.err
	}
	return c.legacyAfterProbe(ctx, m.hello.info, n)
}

// modernAfterProbe retries server/discover once under next, the newest
// version both speak, after the server refused version.
func (c *Client) modernAfterProbe(ctx context.Context, m *modernSession, version, next string, n negotiation, refusal error) error {
	if err := c.prepareDiscover(m, next); err != nil {
		return err
	}
	res, err := c.callDiscover(ctx, m)
	out := discoverOutcome{res, err}
	if out.err != nil {
		if supported := refusedVersions(out.err, CodeUnsupportedProtocolVersion); supported != nil {
			var rpcErr *jsonrpc.Error
			errors.As(out.err, &rpcErr)
			return &ProtocolVersionError{Offered: next, Supported: supported, Err: rpcErr, modern: true}
		}
		return out.err
	}
	if !slices.Contains(out.res.SupportedVersions, next) {
		return fmt.Errorf("mcp: %s: the server's supportedVersions %q do not list %s, the version it answered (after refusing %s: %v)",
			MethodServerDiscover, out.res.SupportedVersions, next, version, refusal)
	}
	return c.modernOpened(m, next, out.res, n)
}

// modernOpened finishes a modern session: the accessors, and the era
// remembered for the server.
func (c *Client) modernOpened(m *modernSession, version string, res *discoverResult, n negotiation) error {
	m.version, m.supported = version, shareVersions(res.SupportedVersions)
	m.hello = nil // encoded in m.meta; see setLogLevel
	c.modern = m
	c.rawModern.Store(m)
	c.init = InitializeResult{ProtocolVersion: version, Capabilities: res.Capabilities, Instructions: res.Instructions, Meta: res.Meta}
	c.initMeta = res.rawMeta
	eras.put(n.key, version)
	return nil
}

// legacyAfterSilentProbe opens with initialize after a probe over stdio
// that ran out of its own deadline (the client's Timeout) before the
// bound sent initialize: a deadline shorter than probeBound, or a server
// that read the probe late. The server stayed silent for all of it, as a
// legacy server that drops server/discover does, so initialize decides,
// as it would after the bound. Failing the connect on the probe's
// deadline instead refused such a server whenever the configured timeout
// was shorter than the bound, where a legacy client would have connected.
func (c *Client) legacyAfterSilentProbe(ctx context.Context, info Implementation, n negotiation, probeErr error) error {
	if err := c.legacyAfterProbe(ctx, info, n); err != nil {
		return fmt.Errorf("%w (server/discover before it: %v)", err, probeErr)
	}
	return nil
}

// legacyAfterProbe opens with initialize after a probe that showed a
// legacy server.
func (c *Client) legacyAfterProbe(ctx context.Context, info Implementation, n negotiation) error {
	c.setStreamVersion("")
	if err := c.handshake(ctx, info, LatestLegacyProtocolVersion); err != nil {
		return err
	}
	eras.put(n.key, c.init.ProtocolVersion)
	return nil
}

// setStreamVersion tells a stream whose wire format depends on the
// version (the HTTP headers) which one the next messages go under.
func (c *Client) setStreamVersion(version string) {
	if vs, ok := c.stream.(seam.ProtocolVersionSetter); ok {
		vs.SetProtocolVersion(version)
	}
}

// isModernError reports a JSON-RPC error that only a server of the
// modern era sends: the codes -32020 to -32022 it defines.
func isModernError(err error) bool {
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		var hErr *transport.HTTPError
		if !errors.As(err, &hErr) || hErr.RPCError == nil {
			return false
		}
		rpcErr = hErr.RPCError
	}
	switch rpcErr.Code {
	case CodeHeaderMismatch, CodeMissingClientCapability:
		return true
	case CodeUnsupportedProtocolVersion:
		return refusedVersions(rpcErr, CodeUnsupportedProtocolVersion) != nil
	}
	return false
}

// refusedByServer reports an answer of the server that refuses a request
// (a JSON-RPC error, an HTTP 400, 404, 405 or another client error but
// those of authorization, 413, a refused size, and 429, a server busy for
// now), as opposed to a connection that failed, a deadline that passed or
// a server too busy to answer (429, 503): only the former says which era
// a server speaks.
func refusedByServer(err error) bool {
	var rpcErr *jsonrpc.Error
	if errors.As(err, &rpcErr) {
		return true
	}
	if errors.Is(err, errNotDiscoverResult) {
		return true
	}
	var hErr *transport.HTTPError
	if errors.As(err, &hErr) {
		// 401 and 403 are about credentials, 413 about the request's
		// size, 429 about how often it is asked: none of them says the
		// server does not speak the era.
		switch s := hErr.StatusCode; s {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestEntityTooLarge, http.StatusTooManyRequests:
			return false
		default:
			return s >= 400 && s < 500
		}
	}
	return false
}

// errNotDiscoverResult: a server/discover result without supportedVersions.
var errNotDiscoverResult = errors.New("the result is not a DiscoverResult (no supportedVersions)")

// callDiscover sends server/discover with m's _meta. It does not touch
// c.modern: a probe may still be under way when the client has chosen.
func (c *Client) callDiscover(ctx context.Context, m *modernSession) (*discoverResult, error) {
	params, err := m.withMeta(nil)
	if err != nil {
		return nil, fmt.Errorf("mcp: %s: adding _meta: %w", MethodServerDiscover, err)
	}
	raw, err := c.conn.Call(ctx, MethodServerDiscover, params, requestOptions(ctx))
	if err != nil {
		if hErr := headerMismatch(MethodServerDiscover, err); hErr != nil {
			return nil, hErr
		}
		return nil, requestError(MethodServerDiscover, err)
	}
	var res discoverResult
	if info, meta, ok := decodeDiscoverMeta(raw, &res); ok {
		if len(res.SupportedVersions) == 0 {
			return nil, fmt.Errorf("mcp: %s: %w", MethodServerDiscover, errNotDiscoverResult)
		}
		kept := res.keepRawMeta(meta)
		if info != nil {
			// What observe would take, without decoding raw again; the
			// bytes are kept's (both are parts of raw: the offset
			// between them is the difference of their capacities).
			off := cap(meta) - cap(info)
			m.tookServerInfo(implementationOf(res.Meta[metaServerInfo]), (*kept)[off:off+len(info)])
		}
		res.Meta = nil
		return &res, nil
	}
	if !isJSONObject(raw) || json.Unmarshal(raw, &res) != nil || len(res.SupportedVersions) == 0 {
		return nil, fmt.Errorf("mcp: %s: %w", MethodServerDiscover, errNotDiscoverResult)
	}
	m.observe(raw)
	return &res, nil
}

// Modern reports whether the session speaks the stateless era (2026-07-28
// and later), opened with server/discover rather than initialize.
func (c *Client) Modern() bool { return c.modern != nil }

// Request sends any request in the session's era and returns its raw
// result: in the modern era with the _meta every request carries (and
// input_required answered for tools/call, prompts/get and
// resources/read), in the legacy era as is. It is the form for methods
// this package does not type. Conn().Call adds the same _meta but leaves
// an input_required result to its caller.
func (c *Client) Request(ctx context.Context, method string, params any) (json.RawMessage, error) {
	var raw json.RawMessage
	if err := c.call(ctx, method, params, nil, &raw); err != nil {
		return nil, err
	}
	return raw, nil
}
