package server

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// outbound is how a session reaches its client. The stream server writes
// everything to its one stream; the HTTP server routes each message by the
// client request it relates to (the POST that carried it) or, when related
// is the zero ID, to the standalone GET stream.
type outbound interface {
	send(ctx context.Context, msg jsonrpc.Message, related jsonrpc.ID) error
	// raw writes bytes that are not a message (the malformed-line fault).
	raw(ctx context.Context, b []byte, related jsonrpc.ID) error
	// crash ends the connection abruptly (the crash fault).
	crash()
	// close ends the connection, unblocking sends in progress.
	close()
}

// Session is one client connection: from initialize until the stream (or
// HTTP session) ends. It gives tool handlers and tests the server→client
// requests and notifications, and records what the client sent.
//
// All methods are safe for concurrent use.
type Session struct {
	srv  *Server
	out  outbound
	seq  int
	id   string
	peer string // who started the session, set before it serves (HTTPOptions.Peer)

	ctx    context.Context // ends when the session ends
	cancel context.CancelFunc
	// inputEnded is closed when the client stopped sending (stdin EOF):
	// calls to the client can no longer be answered.
	inputEnded     chan struct{}
	inputEndedOnce sync.Once
	work           sync.WaitGroup // the workers running handlers and background sends

	nextID atomic.Int64

	mu          sync.Mutex
	initialize  bool // initialize was answered
	initialized chan struct{}
	initOnce    sync.Once
	version     string
	clientInfo  Implementation
	clientCaps  json.RawMessage
	logLevel    string
	subs        map[string]bool
	inflight    map[jsonrpc.ID]inflight
	inflightSeq uint64 // the last inflight.seq given
	pending     map[jsonrpc.ID]chan *jsonrpc.Response
	received    []jsonrpc.Message
	problems    []error
	cancelled   []jsonrpc.ID
	changed     chan struct{} // made by changedLocked for a waiter; closed and cleared whenever received or cancelled grows, inflight shrinks or a place or answer is freed
	ended       bool
	running     int         // pieces of work (goWork) not yet finished
	parked      int         // workers owed a piece of work on next
	next        chan func() // hands a parked worker its next piece of work, or nil to end it
	linger      *time.Timer // ends the parked workers once no work started for lingerFor
	lingering   bool        // linger is armed
	started     uint64      // pieces of work goWork took, ever
	startedMark uint64      // started when linger was armed

	// The bound on requests in flight (inflight.go): the requests holding
	// a place, those of them whose response is being written, the
	// reader's answers not yet written and whether a worker writes them,
	// and why the server ended the session itself.
	requests  int
	writing   int
	answers   []queuedAnswer
	answering bool
	endErr    error

	// tasks are the session's task-augmented tool calls (tasks.go).
	tasks taskTable
}

// inflight is a request whose handler runs. It is kept by value (one
// allocation fewer a request); seq tells a request's own entry from that
// of another request that reused its id.
type inflight struct {
	cancel    context.CancelFunc
	seq       uint64
	cancelled bool
}

// cancelLocked marks the request id cancelled by the client and ends its
// handler's ctx.
func (ss *Session) cancelLocked(id jsonrpc.ID) {
	if f, ok := ss.inflight[id]; ok {
		f.cancelled = true
		ss.inflight[id] = f
		f.cancel()
	}
}

type relatedKey struct{}

// withRelated marks ctx as working on behalf of the client request id, so
// that what is sent under it travels with that request's reply.
func withRelated(ctx context.Context, id jsonrpc.ID) context.Context {
	return &relatedCtx{Context: ctx, id: id}
}

// relatedCtx is context.WithValue(ctx, relatedKey{}, id) in one
// allocation: WithValue would box the id in a second one, for every
// request. The value under relatedKey is the *relatedCtx itself, so that
// looking the id up (for every progress notification) boxes nothing
// either.
type relatedCtx struct {
	context.Context
	id jsonrpc.ID
}

func (c *relatedCtx) Value(key any) any {
	if _, ok := key.(relatedKey); ok {
		return c
	}
	return c.Context.Value(key)
}

func relatedID(ctx context.Context) jsonrpc.ID {
	if c, ok := ctx.Value(relatedKey{}).(*relatedCtx); ok {
		return c.id
	}
	return jsonrpc.ID{}
}

// newSession registers a session; with track, it also counts one serving
// goroutine that Close waits for (counted under the lock so that Close
// never waits on a group that is still growing).
func (s *Server) newSession(out outbound, track bool) (*Session, error) {
	if s.opts.Redact != nil {
		out = redactOut{outbound: out, redact: s.opts.Redact}
	}
	ctx, cancel := context.WithCancel(context.Background())
	ss := &Session{
		srv:         s,
		out:         out,
		cancel:      cancel,
		initialized: make(chan struct{}),
		inputEnded:  make(chan struct{}),
		subs:        map[string]bool{},
		inflight:    map[jsonrpc.ID]inflight{},
		pending:     map[jsonrpc.ID]chan *jsonrpc.Response{},
		next:        make(chan func()),
	}
	ss.ctx = context.WithValue(ctx, sessionKey{}, ss)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		cancel()
		return nil, fmt.Errorf("%w: the server is closed", jsonrpc.ErrClosed)
	}
	s.nextSessID++
	ss.seq = s.nextSessID
	ss.id = "session-" + strconv.Itoa(ss.seq)
	s.sessions[ss] = struct{}{}
	if track {
		s.serving.Add(1)
	}
	return ss, nil
}

// drainTimeout bounds how long a session whose client closed its input
// keeps running to finish the requests in flight. It matches the 2 s a
// stdio client waits after closing stdin before it sends SIGTERM.
const drainTimeout = 2 * time.Second

// drain is called when the client's input ended normally: pending calls
// to the client fail at once, and the requests in flight get up to
// drainTimeout to be answered before the session ends.
func (ss *Session) drain() {
	ss.inputEndedOnce.Do(func() { close(ss.inputEnded) })
	timer := time.NewTimer(drainTimeout)
	defer timer.Stop()
	for {
		ss.mu.Lock()
		n, changed := len(ss.inflight), ss.changedLocked()
		ss.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-changed:
		case <-timer.C:
			return
		case <-ss.ctx.Done():
			return
		}
	}
}

// shutdown ends the session: handler contexts are cancelled, pending
// server→client calls fail, and it waits for the session's goroutines.
func (ss *Session) shutdown() {
	ss.mu.Lock()
	ss.ended = true
	parked := ss.unparkLocked()
	if ss.linger != nil {
		ss.linger.Stop()
	}
	ss.mu.Unlock()
	ss.endParked(parked)
	ss.cancel()
	ss.out.close()
	ss.work.Wait()
	ss.srv.mu.Lock()
	delete(ss.srv.sessions, ss)
	ss.srv.mu.Unlock()
}

// ID names the session: "session-N" in order of creation, except where
// a transport hands the id to the client: over Streamable HTTP (the
// Mcp-Session-Id) and the legacy HTTP+SSE transport (its sessionId) it is
// 128 random bits in hex, or the sealed id under HTTPOptions.SessionKeys.
func (ss *Session) ID() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.id
}

// setID renames the session to the id its transport hands the client.
func (ss *Session) setID(id string) {
	ss.mu.Lock()
	ss.id = id
	ss.mu.Unlock()
}

// Peer is who started the session as HTTPOptions.Peer named them; empty
// over stdio or without that option.
func (ss *Session) Peer() string { return ss.peer }

// Done is closed when the session has ended.
func (ss *Session) Done() <-chan struct{} { return ss.ctx.Done() }

// Initialized is closed when the client has sent notifications/initialized.
func (ss *Session) Initialized() <-chan struct{} { return ss.initialized }

// ProtocolVersion is the version the server answered to initialize.
func (ss *Session) ProtocolVersion() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.version
}

// ClientInfo is the clientInfo the client sent in initialize.
func (ss *Session) ClientInfo() Implementation {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.clientInfo
}

// ClientCapabilities are the capabilities the client sent in initialize.
func (ss *Session) ClientCapabilities() json.RawMessage {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.clientCaps
}

// LogLevel is the level the client last set with logging/setLevel, "" if
// it never did.
func (ss *Session) LogLevel() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.logLevel
}

// Received returns every message the client sent in this session, in
// arrival order.
func (ss *Session) Received() []jsonrpc.Message {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return slices.Clone(ss.received)
}

// Problems returns what the client did wrong that got no answer: bad
// frames, responses to ids the server never used.
func (ss *Session) Problems() []error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return slices.Clone(ss.problems)
}

// WaitReceived waits until the client has sent a request or notification
// of method in this session and returns the first such message.
func (ss *Session) WaitReceived(ctx context.Context, method string) (jsonrpc.Message, error) {
	for {
		ss.mu.Lock()
		for _, m := range ss.received {
			if methodOf(m) == method {
				ss.mu.Unlock()
				return m, nil
			}
		}
		changed := ss.changedLocked()
		ss.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, fmt.Errorf("mcptest: waiting for %s from the client: %w", method, ctx.Err())
		case <-ss.ctx.Done():
			return nil, fmt.Errorf("mcptest: waiting for %s from the client: %w: session ended", method, jsonrpc.ErrClosed)
		}
	}
}

func methodOf(m jsonrpc.Message) string {
	switch m := m.(type) {
	case *jsonrpc.Request:
		return m.Method
	case *jsonrpc.Notification:
		return m.Method
	}
	return ""
}

func (ss *Session) record(m jsonrpc.Message) {
	if ss.srv.opts.NoRecord {
		return
	}
	ss.mu.Lock()
	ss.received = append(ss.received, m)
	ss.signalLocked()
	ss.mu.Unlock()
}

// signalLocked wakes whoever waits on changedLocked's channel. With
// nobody waiting, the usual case, it makes nothing: a channel made for
// every finished request was a gateway call's allocation for nobody.
func (ss *Session) signalLocked() {
	if ss.changed != nil {
		close(ss.changed)
		ss.changed = nil
	}
}

// changedLocked returns a channel that the next signalLocked closes.
func (ss *Session) changedLocked() chan struct{} {
	if ss.changed == nil {
		ss.changed = make(chan struct{})
	}
	return ss.changed
}

// Cancelled returns the ids of the client's requests that the client
// cancelled while they were in flight, and that therefore got no response,
// in the order their handlers gave up.
func (ss *Session) Cancelled() []jsonrpc.ID {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return slices.Clone(ss.cancelled)
}

// WaitCancelled waits until the request id has been cancelled by the
// client and its handler has returned without a response.
func (ss *Session) WaitCancelled(ctx context.Context, id jsonrpc.ID) error {
	for {
		ss.mu.Lock()
		found := slices.Contains(ss.cancelled, id)
		changed := ss.changedLocked()
		ss.mu.Unlock()
		if found {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("mcptest: waiting for the cancellation of %s: %w", id, ctx.Err())
		case <-ss.ctx.Done():
			return fmt.Errorf("mcptest: waiting for the cancellation of %s: %w: session ended", id, jsonrpc.ErrClosed)
		}
	}
}

func (ss *Session) problem(err error) {
	if ss.srv.opts.NoRecord {
		return
	}
	ss.mu.Lock()
	ss.problems = append(ss.problems, err)
	ss.mu.Unlock()
}

func (ss *Session) isInitialized() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.initialize
}

func (ss *Session) subscribed(uri string) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.subs[uri]
}

// maxParked bounds the workers a session keeps parked for its next
// pieces of work, and lingerFor how long they stay once nothing runs.
const (
	maxParked = 128
	lingerFor = 50 * time.Millisecond
)

// goWork runs fn as part of the session's work, unless the session ended.
//
// fn runs on a worker of the session's: a parked one when there is one,
// else a new goroutine. A worker that finishes parks for the next piece of
// work instead of ending, so that a session of many calls reuses
// goroutines whose stacks have already grown to a call's depth: a new
// goroutine grew its stack several times on every routed call through the
// gateway, copying it each time, about a tenth of `mcpwire serve`'s CPU at
// 64 callers (bench/NOTES.md, "The fourteenth round"). Parked workers end
// once no work has started for lingerFor, so an idle session (one of
// thousands over HTTP) keeps no goroutine, nor does one whose only work
// is a long call (a tool call that runs for minutes, a task) keep the
// workers of the burst before it.
func (ss *Session) goWork(fn func()) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.ended {
		return false
	}
	ss.running++
	ss.started++
	if ss.parked > 0 {
		// A parked worker is at the receive or on its way there, taking
		// no lock, so this send does not wait on anything the lock holds.
		ss.parked--
		ss.next <- fn
		return true
	}
	ss.work.Add(1)
	go ss.worker(fn)
	return true
}

// worker runs fn, then whatever goWork hands it while it is parked.
func (ss *Session) worker(fn func()) {
	defer ss.work.Done()
	for fn != nil {
		fn()
		ss.mu.Lock()
		ss.running--
		park := !ss.ended && ss.parked < maxParked
		if park {
			ss.parked++
			// The countdown restarts whenever the session has nothing
			// left to run, and starts if it is not on while a long
			// call runs.
			if ss.running == 0 || !ss.lingering {
				ss.lingerLocked()
			}
		}
		ss.mu.Unlock()
		if !park {
			return
		}
		fn = <-ss.next
	}
}

// lingerLocked (re)starts the countdown to ending the parked workers,
// which endIdle does unless work started meanwhile.
func (ss *Session) lingerLocked() {
	ss.lingering, ss.startedMark = true, ss.started
	if ss.linger == nil {
		ss.linger = time.AfterFunc(lingerFor, ss.endIdle)
		return
	}
	ss.linger.Reset(lingerFor)
}

// endIdle ends the parked workers if no work started since the countdown
// did, whatever is still running (a long call's worker parks, and starts
// a countdown, when it is done); else it counts down again while any is
// parked.
func (ss *Session) endIdle() {
	ss.mu.Lock()
	ss.lingering = false
	n := 0
	switch {
	case ss.ended:
	case ss.started == ss.startedMark:
		n = ss.unparkLocked()
	case ss.parked > 0:
		ss.lingerLocked()
	}
	ss.mu.Unlock()
	ss.endParked(n)
}

// unparkLocked takes the parked workers off the books and returns how many
// endParked must end.
func (ss *Session) unparkLocked() int {
	n := ss.parked
	ss.parked = 0
	return n
}

// endParked ends n workers that were parked (without the lock held).
func (ss *Session) endParked(n int) {
	for range n {
		ss.next <- nil
	}
}

func (ss *Session) notifyAsync(method string, params any) {
	ss.goWork(func() { _ = ss.Notify(ss.ctx, method, params) })
}

// receive handles one message from the client. It returns quickly: the
// work of requests runs on goroutines of the session. ctx is the reader's
// (the stream's, or the HTTP request's that carried m).
func (ss *Session) receive(ctx context.Context, m jsonrpc.Message) {
	ss.record(m)
	switch m := m.(type) {
	case *jsonrpc.Request:
		ss.receiveRequest(ctx, m)
	case *jsonrpc.Notification:
		ss.receiveNotification(m)
	case *jsonrpc.Response:
		ss.mu.Lock()
		ch, ok := ss.pending[m.ID]
		delete(ss.pending, m.ID)
		ss.mu.Unlock()
		if !ok {
			ss.problem(fmt.Errorf("mcptest: response to id %s, which the server never sent or already got an answer to", m.ID))
			return
		}
		ch <- m
	}
}

// receiveBad answers a frame that could not be decoded, as JSON-RPC wants,
// with an error response without id (see badFrameError), before the
// reader (ctx is its context) reads on (see answerAtOnce).
func (ss *Session) receiveBad(ctx context.Context, err error) {
	ss.problem(err)
	ss.answerAtOnce(ctx, &jsonrpc.Response{Error: badFrameError(err)}, jsonrpc.ID{})
}

func (ss *Session) receiveNotification(n *jsonrpc.Notification) {
	switch n.Method {
	case "notifications/initialized":
		ss.initOnce.Do(func() { close(ss.initialized) })
	case jsonrpc.MethodCancelled:
		var p struct {
			RequestID jsonrpc.ID `json:"requestId"`
		}
		if err := json.Unmarshal(n.Params, &p); err != nil || !p.RequestID.IsValid() {
			ss.problem(fmt.Errorf("mcptest: notifications/cancelled without a valid requestId: %s", n.Params))
			return
		}
		ss.mu.Lock()
		ss.cancelLocked(p.RequestID)
		ss.mu.Unlock()
	}
}

func (ss *Session) receiveRequest(rctx context.Context, req *jsonrpc.Request) {
	tool := ""
	// The tool's name only selects faults; without any, decoding it is
	// a second parse of every call's params for nothing.
	if req.Method == "tools/call" && !ss.srv.faultless() {
		var p struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(req.Params, &p)
		tool = p.Name
	}
	srv := ss.srv
	if _, ok := srv.takeFault(FaultCrash, req.Method, tool); ok {
		srv.mu.Lock()
		crash := srv.crash
		srv.mu.Unlock()
		if crash != nil {
			crash()
		}
		ss.out.crash()
		return
	}
	if f, ok := srv.takeFault(FaultFloodStderr, req.Method, tool); ok {
		srv.floodStderr(f.size())
	}
	if _, ok := srv.takeFault(FaultNeverAnswer, req.Method, tool); ok {
		return
	}
	if !ss.admit(rctx) {
		ss.refuseBusy(rctx, req)
		return
	}

	cctx, cancel := context.WithCancel(ss.ctx)
	ctx := withRelated(cctx, req.ID)
	// With handler nil, the request goes to serveModern or handle, called
	// directly (a method value would be an allocation per request).
	var handler func(context.Context, *jsonrpc.Request) (any, error)
	modern := ss.isModern(req)
	switch {
	case modern:
	case req.Method == "ping":
		handler = func(context.Context, *jsonrpc.Request) (any, error) { return nil, nil }
	case req.Method == "initialize":
		// The handshake state changes before the next message is read.
		result, err := ss.initializeSession(req)
		handler = func(context.Context, *jsonrpc.Request) (any, error) { return result, err }
	default:
		if !ss.isInitialized() {
			err := jsonrpc.NewError(jsonrpc.CodeInvalidRequest, fmt.Sprintf("%s before initialize: the first request must be initialize", req.Method))
			handler = func(context.Context, *jsonrpc.Request) (any, error) { return nil, err }
		}
	}
	ss.mu.Lock()
	ss.inflightSeq++
	seq := ss.inflightSeq
	if _, dup := ss.inflight[req.ID]; !dup {
		ss.inflight[req.ID] = inflight{cancel: cancel, seq: seq}
	}
	ss.mu.Unlock()
	started := ss.goWork(func() {
		defer cancel()
		var result any
		var err error
		switch {
		case handler != nil:
			result, err = handler(ctx, req)
		case modern:
			result, err = ss.serveModern(ctx, req)
		default:
			result, err = ss.handle(ctx, req)
		}
		ss.mu.Lock()
		if f, ok := ss.inflight[req.ID]; !ok || f.seq != seq || !f.cancelled {
			ss.writing++
			ss.mu.Unlock()
			ss.respond(req, tool, result, err)
			ss.mu.Lock()
			ss.writing--
		} else { // a cancelled request gets no response
			ss.cancelled = append(ss.cancelled, req.ID)
		}
		// Only now is the request finished: a session draining after the
		// client's input ended waits for the response to be written.
		if f, ok := ss.inflight[req.ID]; ok && f.seq == seq {
			delete(ss.inflight, req.ID)
		}
		ss.leaveLocked()
		ss.signalLocked()
		ss.mu.Unlock()
	})
	if !started {
		cancel()
		ss.mu.Lock()
		ss.leaveLocked()
		ss.mu.Unlock()
	}
}

// respond sends the response to req, applying the faults that act on
// responses.
func (ss *Session) respond(req *jsonrpc.Request, tool string, result any, err error) {
	resp, mErr := jsonrpc.NewResponse(req.ID, result, err)
	if mErr != nil {
		resp = &jsonrpc.Response{ID: req.ID, Error: jsonrpc.NewError(jsonrpc.CodeInternalError, mErr.Error())}
	}
	srv, ctx := ss.srv, ss.ctx
	// Every fault is taken before anything is sent, so a fault armed once
	// this response is on the wire applies to the next one.
	huge, hasHuge := srv.takeFault(FaultHugeNotification, req.Method, tool)
	flood, hasFlood := srv.takeFault(FaultFloodNotifications, req.Method, tool)
	_, malformed := srv.takeFault(FaultMalformedLine, req.Method, tool)
	_, unknownID := srv.takeFault(FaultUnknownID, req.Method, tool)
	_, dup := srv.takeFault(FaultDuplicateResponse, req.Method, tool)
	if hasHuge {
		params := rawJSONString(`{"level":"info","logger":"mcptest","data":`, huge.size(), `}`)
		_ = ss.notifyRelated(ctx, "notifications/message", params, req.ID)
	}
	if hasFlood {
		ss.flood(ctx, flood.size(), req.ID)
	}
	if malformed {
		_ = ss.out.raw(ctx, []byte("mcptest: this line is not JSON-RPC {\"jsonrpc\":\n"), req.ID)
	}
	if unknownID {
		stray := &jsonrpc.Response{ID: jsonrpc.StringID("mcptest-unknown-id"), Result: json.RawMessage(`{}`)}
		_ = ss.out.send(ctx, stray, req.ID)
	}
	_ = ss.out.send(ctx, resp, req.ID)
	if dup {
		_ = ss.out.send(ctx, resp, req.ID)
	}
}

// flood sends n log messages related to the request id, stopping at the
// first that cannot be sent (the client went away).
func (ss *Session) flood(ctx context.Context, n int, related jsonrpc.ID) {
	for i := 1; i <= n; i++ {
		params := json.RawMessage(`{"level":"info","logger":"mcptest","data":"flood ` + strconv.Itoa(i) + `"}`)
		if ss.notifyRelated(ctx, "notifications/message", params, related) != nil {
			return
		}
	}
}

// rawJSONString returns prefix + a JSON string of n 'x' + suffix, built
// without encoding/json: escaping 64 MiB byte by byte takes many seconds
// under the race detector, and a string of 'x' needs no escaping.
func rawJSONString(prefix string, n int, suffix string) json.RawMessage {
	b := make([]byte, 0, len(prefix)+n+2+len(suffix))
	b = append(b, prefix...)
	b = append(b, '"')
	b = append(b, strings.Repeat("x", n)...)
	b = append(b, '"')
	return append(b, suffix...)
}
