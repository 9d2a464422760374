package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// ClientOptions configure a Client. A nil *ClientOptions means the zero
// value: default client info, default timeouts, no client features.
type ClientOptions struct {
	// ClientInfo is sent as clientInfo. The zero value means
	// {Name: "mcpwire", Version: Version}; otherwise Name and Version are
	// required.
	ClientInfo Implementation

	// Timeout and MaxTimeout are the connection's call deadline and the
	// ceiling up to which progress may extend it (see jsonrpc.Options).
	// Zero means the defaults (30 s and 1 h); jsonrpc.NoTimeout disables.
	Timeout, MaxTimeout time.Duration

	// ErrorHook receives problems that belong to no call: bad frames and
	// stray responses (from the engine), undecodable notifications, tools
	// dropped from a listing, an outputSchema that cannot be compiled. It
	// must not block for long. Nil discards them.
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

	// Elicitation, when set, answers elicitation/create and elicitation
	// is declared with the modes in ElicitationModes ("form", "url"; both
	// when empty). A request for an undeclared mode is answered -32602
	// without calling the handler.
	Elicitation      func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)
	ElicitationModes []string

	// OnLog receives every notifications/message, in arrival order, on
	// one goroutine of the engine.
	OnLog func(LoggingMessage)
}

// Client is an initialized MCP session with one server.
//
// All methods are safe for concurrent use. Handlers given in ClientOptions
// run concurrently with each other and with calls; notification callbacks
// (OnLog, OnNotification) run one at a time in arrival order.
type Client struct {
	conn   *jsonrpc.Conn
	stream jsonrpc.Stream
	opts   sessionOptions
	caps   ClientCapabilities

	// Set by the handshake before NewClient returns; read-only afterwards.
	init InitializeResult

	rootsMu sync.Mutex
	roots   []Root

	schemas schemaCache
}

// sessionOptions are the ClientOptions a session keeps after the
// handshake: its handlers and hooks. The rest (client info, initial roots,
// timeouts) is used up by then, and a session does not carry it.
type sessionOptions struct {
	ErrorHook        func(error)
	Roots            func(ctx context.Context) ([]Root, error)
	Sampling         func(ctx context.Context, req *CreateMessageRequest) (*CreateMessageResult, error)
	Elicitation      func(ctx context.Context, req *ElicitRequest) (*ElicitResult, error)
	ElicitationModes []string
	OnLog            func(LoggingMessage)
}

// Connect opens t and performs the handshake (see NewClient). ctx bounds
// both; it does not end the session later.
func Connect(ctx context.Context, t transport.Transport, opts *ClientOptions) (*Client, error) {
	if t == nil {
		return nil, errors.New("mcp: Connect: transport is nil")
	}
	s, err := t.Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("mcp: connecting: %w", err)
	}
	return NewClient(ctx, s, opts)
}

// NewClient starts a session over the open stream s: it sends initialize
// offering LatestProtocolVersion and the capabilities of the handlers in
// opts, accepts any answer in SupportedProtocolVersions, tells a stream
// that implements transport.ProtocolVersionSetter the negotiated version,
// and then sends notifications/initialized. The client owns s from here
// on: if anything fails, s is closed and the error says what went wrong.
// Server pings are answered from the start, also mid-handshake.
func NewClient(ctx context.Context, s jsonrpc.Stream, opts *ClientOptions) (*Client, error) {
	if s == nil {
		return nil, errors.New("mcp: NewClient: stream is nil")
	}
	c := &Client{stream: s}
	var o ClientOptions
	if opts != nil {
		o = *opts
	}
	if err := c.prepare(&o); err != nil {
		_ = s.Close()
		return nil, err
	}
	c.opts = sessionOptions{
		ErrorHook:        o.ErrorHook,
		Roots:            o.Roots,
		Sampling:         o.Sampling,
		Elicitation:      o.Elicitation,
		ElicitationModes: o.ElicitationModes,
		OnLog:            o.OnLog,
	}
	c.schemas.hook = c.report
	c.conn = jsonrpc.NewConn(s, jsonrpc.Options{
		Handler:    c.handle,
		Timeout:    o.Timeout,
		MaxTimeout: o.MaxTimeout,
		ErrorHook:  o.ErrorHook,
	})
	if o.OnLog != nil {
		c.conn.Subscribe(NotificationMessage, c.deliverLog)
	}
	if err := c.handshake(ctx, o.ClientInfo); err != nil {
		_ = c.conn.Close()
		return nil, err
	}
	return c, nil
}

// prepare checks the options, fills in their defaults and derives the
// declared capabilities and the initial roots.
func (c *Client) prepare(o *ClientOptions) error {
	if o.ClientInfo.Name == "" && o.ClientInfo.Version == "" && o.ClientInfo.Title == "" &&
		o.ClientInfo.Description == "" && o.ClientInfo.WebsiteURL == "" && o.ClientInfo.Icons == nil {
		o.ClientInfo = Implementation{Name: "mcpwire", Version: Version}
	}
	if o.ClientInfo.Name == "" {
		return errors.New("mcp: ClientOptions.ClientInfo.Name is empty (the protocol requires it)")
	}
	if o.ClientInfo.Version == "" {
		return errors.New("mcp: ClientOptions.ClientInfo.Version is empty (the protocol requires it)")
	}
	if o.Roots != nil || o.InitialRoots != nil {
		if err := checkRoots(o.InitialRoots); err != nil {
			return fmt.Errorf("mcp: ClientOptions.InitialRoots: %w", err)
		}
		c.roots = slices.Clone(o.InitialRoots)
		c.caps.Roots = &RootsCapability{ListChanged: true}
	}
	if o.Sampling != nil {
		c.caps.Sampling = &SamplingCapability{}
		if o.SamplingContext {
			c.caps.Sampling.Context = &EmptyObject{}
		}
		if o.SamplingTools {
			c.caps.Sampling.Tools = &EmptyObject{}
		}
	}
	if o.Elicitation != nil {
		if len(o.ElicitationModes) == 0 {
			o.ElicitationModes = []string{ElicitModeForm, ElicitModeURL}
		}
		c.caps.Elicitation = &ElicitationCapability{}
		for _, m := range o.ElicitationModes {
			switch m {
			case ElicitModeForm:
				c.caps.Elicitation.Form = &EmptyObject{}
			case ElicitModeURL:
				c.caps.Elicitation.URL = &EmptyObject{}
			default:
				return fmt.Errorf("mcp: ClientOptions.ElicitationModes: unknown mode %q (want %q or %q)", m, ElicitModeForm, ElicitModeURL)
			}
		}
		o.ElicitationModes = slices.Clone(o.ElicitationModes)
	}
	return nil
}

// report passes a problem that belongs to no call to the ErrorHook.
func (c *Client) report(err error) {
	if c.opts.ErrorHook != nil {
		c.opts.ErrorHook(err)
	}
}

// ServerInfo returns the server's serverInfo from the handshake.
func (c *Client) ServerInfo() Implementation { return c.init.ServerInfo }

// ServerCapabilities returns what the server declared in the handshake.
func (c *Client) ServerCapabilities() ServerCapabilities { return c.init.Capabilities }

// ClientCapabilities returns what the client declared in the handshake.
func (c *Client) ClientCapabilities() ClientCapabilities { return c.caps }

// Instructions returns the server's instructions, "" when it gave none.
func (c *Client) Instructions() string { return c.init.Instructions }

// ProtocolVersion returns the negotiated protocol revision.
func (c *Client) ProtocolVersion() string { return c.init.ProtocolVersion }

// InitializeResult returns the server's whole answer to initialize.
func (c *Client) InitializeResult() InitializeResult { return c.init }

// Conn returns the underlying engine, for methods this package does not
// wrap. Do not close it behind the client's back; use Close.
func (c *Client) Conn() *jsonrpc.Conn { return c.conn }

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
// engine. Subscriptions made after Connect returns miss notifications sent
// before; use OnLog for logging from the first message on.
func (c *Client) OnNotification(method string, fn func(*jsonrpc.Notification)) (unsubscribe func()) {
	return c.conn.Subscribe(method, fn)
}
