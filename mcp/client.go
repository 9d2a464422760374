package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/renewhook"
	"github.com/mcpwire/mcpwire/internal/seam"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// ClientOptions configure a Client. A nil *ClientOptions means the zero
// value: default client info, default timeouts, no client features, no
// callbacks.
//
// Every handler and callback receives a ctx that carries the Origin of
// the message (see OriginOf): the server's name and the session.
type ClientOptions struct {
	// ClientInfo is sent as clientInfo. The zero value means
	// {Name: "mcpwire", Version: LibraryVersion}; otherwise Name and Version are
	// required.
	ClientInfo Implementation

	// ProtocolVersion chooses the protocol revision. "" and ProtocolAuto
	// (the default) negotiate the era: server/discover first, and
	// initialize offering LatestLegacyProtocolVersion when the server shows
	// itself legacy (an error other than the modern era's own, a result
	// that is not a DiscoverResult, an HTTP 4xx without a modern error;
	// over stdio also no answer within half a second of the server
	// reading the probe). The outcome is
	// remembered per server for the life of the process (see Connect),
	// and the next connect skips the probe. A version in ProtocolVersions
	// pins the legacy era: initialize offers it and nothing is probed.
	// ModernProtocolVersion ("2026-07-28") pins the stateless revision:
	// no initialize; server/discover at connect fills ServerInfo,
	// ServerCapabilities, Instructions, ProtocolVersion and ServerVersions
	// (a -32022 refusal is retried once with the newest version both
	// speak); every request carries the version, the client capabilities
	// and ClientInfo in _meta, the log level of SetLogLevel travels there
	// too, and Ping sends server/discover. Any other value is an error.
	ProtocolVersion string

	// ServerName names the server in the Origin that handlers and
	// callbacks see (the manager sets each server's configured name).
	ServerName string

	// Timeout and MaxTimeout are the deadline of protocol requests (list,
	// read, get, complete, ping, subscribe, setLevel, the tasks/ methods)
	// and the ceiling up to which progress may extend it. Zero means
	// DefaultTimeout (30 s) and DefaultMaxTimeout (1 h); NoTimeout
	// disables. Requests that a server answers from what it has should
	// not need more; a server that takes longer is stuck.
	Timeout, MaxTimeout time.Duration

	// ToolTimeout and ToolMaxTimeout are the policy of tool calls: an
	// idle deadline that each progress notification for the call pushes
	// forward by ToolTimeout again, as does a request of the server
	// (sampling, elicitation, roots; not ping) while it is answered and
	// when the answer goes out, under a cap of ToolMaxTimeout from the
	// call's start. Zero means Timeout and MaxTimeout when those are set
	// (one deadline for every request, as a host's per-server "timeout"
	// means), else DefaultToolTimeout (10 min) and DefaultToolMaxTimeout
	// (2 h); NoTimeout disables. CallTool always asks for progress, so a
	// server that reports it keeps its tool alive. Per call, CallOptions
	// overrides both.
	ToolTimeout, ToolMaxTimeout time.Duration

	// ErrorHook receives problems that belong to no call: bad frames and
	// stray responses (from the engine), undecodable notifications, tools
	// dropped from a listing, an outputSchema that cannot be compiled, a
	// subscription that could not be set up again on a renewed session.
	// It must not block for long. Nil discards them.
	ErrorHook func(error)

	// Roots, when set, answers the server's roots/list, and roots
	// {listChanged: true} is declared. Call NotifyRootsChanged when its
	// answer changes. Each root's URI must be a file:// URI.
	Roots func(ctx context.Context) ([]Root, error)
	// InitialRoots, when non-nil (even empty) and Roots is nil, is the
	// client's own roots list: roots {listChanged: true} is declared,
	// roots/list answers it, and SetRoots replaces it.
	InitialRoots []Root

	// Sampling, when set, answers sampling/createMessage and sampling is
	// declared. Return an error wrapping ErrSamplingRejected when the user
	// declines. SamplingContext and SamplingTools add the sampling.context
	// and sampling.tools sub-capabilities.
	Sampling        func(ctx context.Context, req *CreateMessageRequest) (*CreateMessageResult, error)
	SamplingContext bool
	SamplingTools   bool

	// Elicitation, when set, answers form-mode elicitation/create and
	// elicitation.form is declared. ElicitationURL, when set, answers
	// URL-mode requests and elicitation.url is declared: only then, as
	// URL mode carries duties (the user's consent before opening the URL)
	// a form-only agent never took on. A request for an undeclared mode is
	// answered -32602 without calling either.
	Elicitation    func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)
	ElicitationURL func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)

	// InputRequired, when set, answers the modern era's input_required
	// results (of tools/call, prompts/get and resources/read) instead of
	// the handlers above: it gets the server's requests and returns the
	// answers by their keys, which the client sends back with the request
	// (up to 10 rounds). Without it, Sampling, Elicitation, ElicitationURL
	// and Roots answer them as they answer the older eras' requests, and a
	// request none of them can answer fails the call with an *InputError.
	InputRequired func(ctx context.Context, req *InputRequired) (map[string]json.RawMessage, error)

	// Typed notification callbacks. They are subscribed before
	// initialize is sent, so nothing the server sends right after the
	// handshake is missed. They run one at a time, in arrival order, on a
	// goroutine of the engine (a slow callback delays later notifications,
	// never responses); their ctx carries the Origin and ends when the
	// session ends. An undecodable notification goes to the ErrorHook.

	// OnProgress receives every notifications/progress, also those
	// passed to a call's CallOptions.OnProgress.
	OnProgress func(ctx context.Context, p ProgressNotification)
	// OnLogMessage receives notifications/message (see SetLogLevel).
	OnLogMessage func(ctx context.Context, m LoggingMessage)
	// OnResourceUpdated receives notifications/resources/updated for
	// subscribed resources (see SubscribeResource).
	OnResourceUpdated func(ctx context.Context, u ResourceUpdated)
	// OnResourcesListChanged, OnToolsListChanged and OnPromptsListChanged
	// receive the list_changed notifications. In the modern era each one
	// set opts in to its list in the client's subscriptions/listen.
	// Over Streamable HTTP before 2026-07-28 each is also called once
	// before Connect returns, for a list the server advertised as
	// changing: an announcement sent before the GET listener opened is
	// lost on the wire, and a re-list finds what it said.
	OnResourcesListChanged func(ctx context.Context)
	OnToolsListChanged     func(ctx context.Context)
	OnPromptsListChanged   func(ctx context.Context)
	// OnElicitationComplete receives notifications/elicitation/complete
	// (the end of a URL-mode elicitation).
	OnElicitationComplete func(ctx context.Context, e ElicitationComplete)
	// OnTaskStatus receives notifications/tasks/status.
	OnTaskStatus func(ctx context.Context, t Task)
	// OnNotification receives every notification, after the typed
	// callback of its method: the form for extensions and methods this
	// package does not type.
	OnNotification func(ctx context.Context, n *Notification)

	// NotificationQueue bounds the notifications waiting for the
	// callbacks above, in count and in bytes. Zero fields mean
	// jsonrpc.DefaultQueueLength (1024) and jsonrpc.DefaultQueueBytes
	// (8 MiB). The connection reads on while a callback is slow, so that
	// no response waits behind a notification; when the queue is full,
	// the oldest log messages, progress and resource updates are dropped
	// first, a list_changed that arrives while an equal one waits is
	// folded into it, and other notifications (task status, elicitation
	// complete, acknowledgements, extensions) go, oldest first, only when
	// nothing droppable is left. Responses and the server's requests
	// never wait in it and are never dropped. Client.QueueStats counts
	// the drops.
	NotificationQueue jsonrpc.QueueLimits
	// OnNotificationsDropped is told how many notifications the queue
	// dropped since it was last called. It runs like the callbacks
	// above, one at a time in order, just before the next notification
	// after the drops is delivered.
	OnNotificationsDropped func(ctx context.Context, dropped int)

	// Extensions are declared as the client capabilities' extensions, by
	// identifier, each with its settings (a JSON object), for extensions
	// the application implements itself, such as MCP Apps
	// ("io.modelcontextprotocol/ui"). The client does nothing else with
	// them.
	Extensions map[string]json.RawMessage

	// Restore, when set, is set up on the new session right after the
	// handshake, before NewClient returns: what a previous session held
	// (see Client.SessionState). The manager uses it when it reconnects a
	// server. Failures go to the ErrorHook.
	Restore *SessionState
}

// Client is an initialized MCP session with one server.
//
// All methods are safe for concurrent use. Handlers given in ClientOptions
// run concurrently with each other and with calls; notification callbacks
// run one at a time in arrival order.
type Client struct {
	conn   *jsonrpc.Conn
	stream jsonrpc.Stream
	// rawModern is modern for requests sent through Conn (see
	// prepareRequest).
	rawModern rawModernSession
	opts      sessionOptions
	// caps are what the client declared: read-only, noCaps when nothing.
	caps   *ClientCapabilities
	origin Origin

	// Set by the handshake before NewClient returns; read-only afterwards.
	// initMeta is the modern era's server/discover _meta as sent, when
	// init.Meta is nil (see discoverResult.rawMeta).
	init     InitializeResult
	initMeta *string // read-only, shared (see keepRawMeta)
	// modern is the modern era's state, nil after initialize (so the
	// legacy path pays one nil check).
	modern *modernSession
	// listen is the modern era's subscriptions/listen, made when a
	// session first listens (see listener): an idle session holds none.
	listen atomic.Pointer[listenLoop]

	// roots are the roots SetRoots (or InitialRoots) gave, nil when
	// neither did: a pointer, so that a session without roots holds no
	// slice and no mutex.
	roots atomic.Pointer[[]Root]

	// state is what the client set up on the server (see SessionState),
	// made by the first subscription or log level.
	state atomic.Pointer[sessionState]
	// tasks is made when a task is first waited on or a server with
	// task-augmented tools/call lists its tools (see taskState).
	tasks atomic.Pointer[taskWatchers]

	// tools is what tool listings taught (see toolsKnown), made by the
	// first listing: a session that never listed holds none.
	tools atomic.Pointer[toolsKnown]

	// listenerHeld: the stream's listener was held back by the handshake
	// (see holdListener) and not released since.
	listenerHeld atomic.Bool
	// resultsChecked: every result comes from a frame the codec checked
	// as JSON (seam.CheckedResults), so decoders need not check it again.
	// (Next to listenerHeld and deliverMu, whose alignment is 4: in the
	// padding, which keeps Client in the 512-byte size class.)
	resultsChecked bool
	// deliverMu keeps the notification callbacks one at a time when the
	// handshake calls them too (see announceAfterListener).
	deliverMu sync.Mutex
}

// sessionOptions are the ClientOptions a session keeps after the
// handshake: its handlers, hooks and tool policy. The rest (client info,
// initial roots, protocol timeouts) is used up by then, and a session does
// not carry it.
type sessionOptions struct {
	// The handlers are behind a pointer, shared by every session that
	// sets none (noHandlers), so an idle default session does not carry
	// 120 bytes of nil functions. Never nil once NewClient set it.
	*sessionHandlers
	toolTimeout time.Duration
	toolMax     time.Duration
}

// sessionHandlers are the callbacks a session keeps; read-only once set.
type sessionHandlers struct {
	ErrorHook      func(error)
	Roots          func(ctx context.Context) ([]Root, error)
	Sampling       func(ctx context.Context, req *CreateMessageRequest) (*CreateMessageResult, error)
	Elicitation    func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)
	ElicitationURL func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)
	InputRequired  func(ctx context.Context, req *InputRequired) (map[string]json.RawMessage, error)
	notify         notificationHandlers
}

// noHandlers are the handlers of every session whose options set none.
var noHandlers sessionHandlers

// handlersOf returns o's handlers, noHandlers when it sets none.
func handlersOf(o *ClientOptions) *sessionHandlers {
	h := &sessionHandlers{
		ErrorHook:      o.ErrorHook,
		Roots:          o.Roots,
		Sampling:       o.Sampling,
		Elicitation:    o.Elicitation,
		ElicitationURL: o.ElicitationURL,
		InputRequired:  o.InputRequired,
		notify:         notificationHandlersOf(o),
	}
	if h.ErrorHook == nil && h.Roots == nil && h.Sampling == nil && h.Elicitation == nil &&
		h.ElicitationURL == nil && h.InputRequired == nil && !h.notify.any() {
		return &noHandlers
	}
	return h
}

// Connect opens t and performs the handshake (see NewClient). ctx bounds
// both; it does not end the session later. When t is a
// transport.Identifier, the negotiated era is remembered for its server
// (see ClientOptions.ProtocolVersion); a transport.SSE is legacy-only and
// never probed.
//
// When the handshake fails, Connect closes the stream before it returns,
// so that nothing it started outlives the error. A transport.Command's
// child that answered gets its graceful stop (see Command.CloseTimeout).
// One that did not answer in time (ctx ended, or the Timeout of opts ran
// out) is ended at once, SIGTERM then SIGKILL 100 ms later, so that
// Connect returns close to ctx's deadline.
func Connect(ctx context.Context, t transport.Transport, opts *ClientOptions) (*Client, error) {
	if t == nil {
		return nil, errors.New("mcp: Connect: transport is nil")
	}
	s, err := t.Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcp: connecting: %w", err)
	}
	// Only the negotiation needs the server's identity (a hash of the
	// command and its environment, or of the URL): a pinned era skips it.
	var n negotiation
	if opts == nil || opts.ProtocolVersion == "" || opts.ProtocolVersion == ProtocolAuto {
		n = negotiationOf(t)
	}
	return newClient(ctx, s, opts, n)
}

// NewClient starts a session over the open stream s in the era that
// opts.ProtocolVersion pins or negotiates. In the legacy era it sends
// initialize offering LatestLegacyProtocolVersion (or the pinned revision) and
// the capabilities of the handlers in opts, accepts any answer in
// ProtocolVersions, tells a stream of this module's HTTP transports the
// negotiated version (they send it as a header), and then sends
// notifications/initialized. Any other stream is treated as stdio for the
// probe's bound. Nothing is remembered for a bare stream (see Connect). The client owns s from here
// on: if anything fails, s is closed and the error says what went wrong.
// Server pings are answered from the start, also mid-handshake.
func NewClient(ctx context.Context, s jsonrpc.Stream, opts *ClientOptions) (*Client, error) {
	return newClient(ctx, s, opts, negotiation{})
}

// newClient is NewClient with what Connect knows of the server.
func newClient(ctx context.Context, s jsonrpc.Stream, opts *ClientOptions, n negotiation) (*Client, error) {
	if s == nil {
		return nil, errors.New("mcp: NewClient: stream is nil")
	}
	c := &Client{stream: s}
	if cr, ok := s.(seam.CheckedResults); ok {
		c.resultsChecked = cr.ResultsChecked()
	}
	var o ClientOptions
	if opts != nil {
		o = *opts
	}
	if err := c.prepare(&o); err != nil {
		_ = s.Close()
		return nil, err
	}
	c.opts = sessionOptions{
		sessionHandlers: handlersOf(&o),
		toolTimeout:     toolPolicy(o.ToolTimeout, o.Timeout, DefaultToolTimeout),
		toolMax:         toolPolicy(o.ToolMaxTimeout, o.MaxTimeout, DefaultToolMaxTimeout),
	}
	c.origin = Origin{Server: o.ServerName, Client: c}
	c.conn = jsonrpc.NewConn(s, jsonrpc.Options{
		Handler:    c.handle,
		Timeout:    o.Timeout,
		MaxTimeout: o.MaxTimeout,
		ErrorHook:  o.ErrorHook,
		Queue:      o.NotificationQueue,
		Classify:   classifyNotification,
		OnDropped:  c.droppedCallback(o.OnNotificationsDropped),
		// Requests sent straight through Conn().Call carry the era's
		// _meta as the typed methods' do.
		PrepareRequest: c.prepareRequest,
	})
	if c.opts.notify.any() {
		c.conn.Subscribe("", c.deliver)
	}
	if err := c.open(ctx, &o, n); err != nil {
		abandonIfUnanswered(ctx, s, err)
		_ = c.conn.Close()
		return nil, err
	}
	if c.init.Capabilities.Tasks != nil {
		c.conn.Subscribe(NotificationTasksStatus, c.statusArrived)
	}
	c.announceAfterListener()
	if o.Restore != nil {
		c.restore(ctx, o.Restore)
	}
	if c.modern != nil {
		c.awaitListen(ctx, c.relisten())
	}
	// A modern session has no server session to renew (the transport
	// renews by repeating initialize), so it holds no hook.
	if h, ok := s.(renewhook.Hooker); ok && c.modern == nil {
		h.SetRenewalHook(c.restoreAfterRenewal)
	}
	return c, nil
}

// prepare checks the options, fills in their defaults and derives the
// declared capabilities and the initial roots.
func (c *Client) prepare(o *ClientOptions) error {
	if o.ClientInfo.Name == "" && o.ClientInfo.Version == "" && o.ClientInfo.Title == "" &&
		o.ClientInfo.Description == "" && o.ClientInfo.WebsiteURL == "" && o.ClientInfo.Icons == nil {
		o.ClientInfo = Implementation{Name: "mcpwire", Version: LibraryVersion}
	}
	if o.ClientInfo.Name == "" {
		return errors.New("mcp: ClientOptions.ClientInfo.Name is empty (the protocol requires it)")
	}
	if o.ClientInfo.Version == "" {
		return errors.New("mcp: ClientOptions.ClientInfo.Version is empty (the protocol requires it)")
	}
	if err := checkProtocolPin(o.ProtocolVersion); err != nil {
		return err
	}
	var caps ClientCapabilities
	if o.Roots != nil || o.InitialRoots != nil {
		if err := checkRoots(o.InitialRoots); err != nil {
			return fmt.Errorf("mcp: ClientOptions.InitialRoots: %w", err)
		}
		roots := slices.Clone(o.InitialRoots)
		c.roots.Store(&roots)
		caps.Roots = &RootsCapability{ListChanged: true}
	}
	if o.Sampling != nil {
		caps.Sampling = &SamplingCapability{}
		if o.SamplingContext {
			caps.Sampling.Context = &EmptyObject{}
		}
		if o.SamplingTools {
			caps.Sampling.Tools = &EmptyObject{}
		}
	}
	for id, settings := range o.Extensions {
		if id == "" || !json.Valid(settings) || !bytes.HasPrefix(bytes.TrimSpace(settings), []byte("{")) {
			return fmt.Errorf("mcp: ClientOptions.Extensions[%q]: the settings must be a JSON object", clip(id))
		}
	}
	caps.Extensions = maps.Clone(o.Extensions)
	if o.Elicitation != nil || o.ElicitationURL != nil {
		caps.Elicitation = &ElicitationCapability{}
		if o.Elicitation != nil {
			caps.Elicitation.Form = &EmptyObject{}
		}
		if o.ElicitationURL != nil {
			caps.Elicitation.URL = &EmptyObject{}
		}
	}
	c.caps = &noCaps
	if caps.Roots != nil || caps.Sampling != nil || caps.Elicitation != nil || caps.Extensions != nil {
		c.caps = new(ClientCapabilities)
		*c.caps = caps
	}
	return nil
}

// noCaps are the capabilities of every session whose options declare
// none; read-only.
var noCaps ClientCapabilities

// report passes a problem that belongs to no call to the ErrorHook.
func (c *Client) report(err error) {
	if c.opts.ErrorHook != nil {
		c.opts.ErrorHook(err)
	}
}

// ServerInfo returns the server's serverInfo from the handshake; in the
// modern era, from the latest result that carried one in _meta.
func (c *Client) ServerInfo() Implementation {
	if c.modern != nil {
		return c.modern.serverInfo()
	}
	return c.init.ServerInfo
}

// ServerCapabilities returns what the server declared in the handshake.
func (c *Client) ServerCapabilities() ServerCapabilities { return c.init.Capabilities }

// ClientCapabilities returns what the client declared in the handshake.
func (c *Client) ClientCapabilities() ClientCapabilities { return *c.caps }

// Instructions returns the server's instructions, "" when it gave none.
func (c *Client) Instructions() string { return c.init.Instructions }

// ProtocolVersion returns the negotiated protocol revision.
func (c *Client) ProtocolVersion() string { return c.init.ProtocolVersion }

// InitializeResult returns the server's whole answer to initialize. In
// the modern era it is built from server/discover, with the latest
// serverInfo.
func (c *Client) InitializeResult() InitializeResult {
	r := c.init
	if c.modern != nil {
		r.ServerInfo = c.ServerInfo()
	}
	if r.Meta == nil && c.initMeta != nil {
		// A copy per call, decoded as encoding/json would have; the
		// bytes were read as JSON when they arrived.
		_ = json.Unmarshal([]byte(*c.initMeta), &r.Meta)
	}
	return r
}

// Conn returns the underlying engine, for methods this package does not
// wrap. Its requests carry what the session's era asks of every request
// (in 2026-07-28 the _meta with the protocol version, the client's
// capabilities and info), so a raw Call works in every era; results come
// back as sent (an input_required result is not answered: Request does
// that). Do not close it behind the client's back; use Close. It opens a
// GET listener held back for want of a subscriber (see OnNotification).
func (c *Client) Conn() *jsonrpc.Conn {
	c.releaseListener() // the engine's user may subscribe to anything
	return c.conn
}

// Close ends the session and closes the stream. It is idempotent.
func (c *Client) Close() error { return c.conn.Close() }

// Done is closed when the session has ended, by Close or because the
// stream ended.
func (c *Client) Done() <-chan struct{} { return c.conn.Done() }

// Err returns why the session ended (wrapping jsonrpc.ErrClosed), or nil
// while it is open.
func (c *Client) Err() error { return c.conn.Err() }

// OnNotification calls fn for every notification of method from the server
// ("" for all), one at a time in arrival order, on a goroutine of the
// engine, with the ctx the ClientOptions callbacks get (it carries the
// Origin and ends with the session). Subscriptions made after Connect returns miss notifications sent
// before; the callbacks in ClientOptions see every one.
//
// Over Streamable HTTP (before 2026-07-28) a session with no notification
// callback, no handler for a server's requests and no tasks opens no GET
// listener, as nothing could take what arrives there. The first
// OnNotification opens it, and returns once the server answered the GET
// (within a short bound).
func (c *Client) OnNotification(method string, fn func(ctx context.Context, n *Notification)) (unsubscribe func()) {
	unsubscribe = c.conn.Subscribe(method, func(n *Notification) { fn(sessionCtx{c}, n) })
	c.releaseListener()
	return unsubscribe
}
