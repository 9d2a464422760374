package jsonrpc

import (
	"context"
	"encoding/json"
	"time"
)

// Defaults of Options and CallOptions.
const (
	// DefaultTimeout is a call's deadline when neither the connection nor
	// the call sets one.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxTimeout is the hard ceiling up to which progress
	// notifications may extend a call's deadline.
	DefaultMaxTimeout = time.Hour
	// DefaultCancelTimeout bounds the background send of
	// notifications/cancelled.
	DefaultCancelTimeout = 5 * time.Second
	// NoTimeout, given as a Timeout or MaxTimeout, disables that deadline.
	NoTimeout time.Duration = -1
)

// Method names the engine itself understands. They are MCP's names for
// JSON-RPC utilities that every MCP peer shares.
const (
	MethodCancelled = "notifications/cancelled"
	MethodProgress  = "notifications/progress"
)

// Handler answers one request from the peer. It runs in its own goroutine,
// concurrently with other handlers; ctx ends when the peer cancels the
// request (notifications/cancelled), when the connection ends, or when Close
// is called. The result is encoded as the response's "result" (nil encodes
// as {}; a json.RawMessage is sent as is). A *Error in err's chain is sent
// as is; ErrMethodNotFound answers -32601; other errors answer -32603.
// After the peer cancelled the request no response is sent at all.
type Handler func(ctx context.Context, c *Conn, req *Request) (result any, err error)

// Options configure a Conn. The zero value is usable.
type Options struct {
	// Handler answers the peer's requests. Nil answers every request
	// with -32601 method not found.
	Handler Handler
	// Timeout is each call's deadline unless the call sets its own. Zero
	// means DefaultTimeout; NoTimeout disables it.
	Timeout time.Duration
	// MaxTimeout caps how long progress can keep a call alive. Zero means
	// DefaultMaxTimeout; NoTimeout disables the cap.
	MaxTimeout time.Duration
	// CancelTimeout bounds the background send of notifications/cancelled
	// after a call gives up. Zero means DefaultCancelTimeout.
	CancelTimeout time.Duration
	// ErrorHook receives problems that belong to no call: a malformed
	// frame, a response to an unknown id, a duplicate response, a handler
	// that panicked, a response that could not be written. The connection
	// goes on after each. It is called from the engine's goroutines and
	// must not block for long. Nil discards them.
	ErrorHook func(error)
}

// CallOptions adjust one call. A nil *CallOptions means the defaults.
type CallOptions struct {
	// Timeout overrides the connection's Timeout for this call. Zero
	// means the connection's; NoTimeout disables it.
	Timeout time.Duration
	// OnProgress, when set, asks the peer for progress: a fresh
	// progressToken is put in params._meta, each matching
	// notifications/progress is passed here in arrival order, and each
	// moves the call's deadline forward by its Timeout, never past the
	// connection's MaxTimeout from the call's start.
	OnProgress func(Progress)
}

// Progress is one notifications/progress for a call.
type Progress struct {
	Progress float64
	// Total is nil when the peer did not say.
	Total   *float64
	Message string
	// Raw is the notification's params as received.
	Raw json.RawMessage
}

// Conn is the JSON-RPC engine over one Stream. It owns the stream: it reads
// it from one goroutine, correlates responses with pending calls by id,
// runs the peer's requests in handlers, and delivers notifications to
// subscribers in arrival order.
//
// All methods are safe for concurrent use. Call and Notify may be used from
// handlers and subscriber callbacks.
type Conn struct {
	_ struct{}
}

// NewConn starts the engine over s and returns at once; reading begins
// immediately.
func NewConn(s Stream, opts Options) *Conn {
	panic("jsonrpc: NewConn not implemented yet")
}

// Call sends a request and waits for its response, returning the raw
// "result" for the caller to decode once. A JSON-RPC error response is
// returned as a *Error. If ctx ends or the call's deadline passes first,
// Call returns at once with an error that says which (errors.Is with
// context.Canceled, or ErrTimeout for any deadline) and sends
// notifications/cancelled in the background. If the connection ends first,
// the error wraps ErrClosed and the cause.
func (c *Conn) Call(ctx context.Context, method string, params any, opts *CallOptions) (json.RawMessage, error) {
	panic("jsonrpc: Call not implemented yet")
}

// Notify sends a notification. It returns once the stream accepted it.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	panic("jsonrpc: Notify not implemented yet")
}

// Subscribe registers fn for notifications of method, or for every
// notification when method is "". Callbacks run one at a time, in arrival
// order, on a goroutine of the engine (never the read loop, so a slow
// callback delays later notifications but never responses). The returned
// function removes the subscription.
func (c *Conn) Subscribe(method string, fn func(*Notification)) (unsubscribe func()) {
	panic("jsonrpc: Subscribe not implemented yet")
}

// Close ends the connection: pending calls fail with ErrClosed, handler
// contexts are cancelled, the stream is closed. It is idempotent and
// returns within a bounded time.
func (c *Conn) Close() error {
	panic("jsonrpc: Close not implemented yet")
}

// Done is closed when the connection has ended, by Close or because the
// stream ended.
func (c *Conn) Done() <-chan struct{} {
	panic("jsonrpc: Done not implemented yet")
}

// Err returns why the connection ended (wrapping ErrClosed), or nil while
// it is open.
func (c *Conn) Err() error {
	panic("jsonrpc: Err not implemented yet")
}
