package jsonrpc

import (
	"context"
	"time"
)

// Stream is the seam between the engine and a transport: it moves whole
// messages and knows nothing of ids, pending calls or MCP methods.
//
// Concurrency contract:
//   - Read is called from one goroutine at a time (the engine's read loop).
//     It blocks until a message arrives, ctx ends, or the stream ends. A
//     *DecodeError means one bad frame was skipped and the stream is still
//     usable; any other error is terminal and should say why the stream
//     ended (process exit status and stderr tail, HTTP status, EOF).
//     After a terminal error every later Read returns a terminal error.
//   - Write may be called from many goroutines at once; the stream
//     serializes them. It blocks under backpressure and returns when ctx
//     ends. A message is written whole or not at all.
//   - Close is idempotent, safe to call concurrently with Read and Write,
//     unblocks both, and returns within a bounded time.
type Stream interface {
	Read(ctx context.Context) (Message, error)
	Write(ctx context.Context, msg Message) error
	Close() error
}

// TurnReader is an optional ability of a Stream: reading in turns, on
// whichever goroutine the engine picks, instead of on one read goroutine.
// With it, a caller waiting for its response reads the stream itself while
// nobody else does, so that its response costs no goroutine handoff; the
// engine's read goroutine reads only while no caller does (see Conn).
//
// ReadTurn reads on the calling goroutine and passes each message, or a
// *DecodeError for a frame it skipped, to to.Receive, in arrival order,
// until Receive returns false, the deadline passes (zero: none), or
// Interrupt is called; it then returns nil, and the next turn goes on
// where this one stopped, with a message that was cut short or the rest of
// a batch. It returns a non-nil error only when the stream ended, the
// error Read would return; every later turn returns it again. The engine
// never runs two turns at once, and never mixes ReadTurn with Read.
//
// Interrupt makes the turn that is running, if any, return soon. It may be
// called from any goroutine; an Interrupt with no turn running may end the
// next turn early, which the engine tolerates (a turn that ends early is
// simply taken again).
type TurnReader interface {
	ReadTurn(deadline time.Time, to Receiver) error
	Interrupt()
}

// Receiver takes the messages of a turn (see TurnReader). It is an
// interface rather than a func so that a caller's turn allocates nothing.
type Receiver interface {
	Receive(msg Message, err error) bool
}

// Pusher is an optional ability of a Stream whose messages are read on
// goroutines of its own anyway, such as an HTTP reply, read by the
// goroutine that posted the request. Instead of queueing each message for
// Read, such a stream hands it straight to the engine, which then runs no
// read goroutine at all: an idle connection costs no goroutine, and a
// response reaches its caller with one handoff fewer.
//
// Push is called once, instead of Read, before any Write; it returns at
// once. From then on the stream passes each message it receives, or a
// *DecodeError for one it could not read, to to.Receive, from any of its
// goroutines, concurrently: messages from one source (one reply, one
// event stream) in their order. Receive does not block for long; when it
// returns false the connection is over and the stream may stop reading.
// When the stream ends, it calls ended once, with the error Read would
// return then; ended must not wait for the stream's goroutines.
type Pusher interface {
	Push(to Receiver, ended func(error))
}
