package jsonrpc

import (
	"context"

	"github.com/mcpwire/mcpwire/internal/readmode"
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
//     unblocks both, and returns within a bounded time. The engine calls
//     it when the connection ends; on Conn.Close, only after the
//     notifications/cancelled being written went out (or their bound
//     passed), so a Close that says goodbye to the peer (closing a
//     child's stdin, an HTTP DELETE) comes after them.
type Stream interface {
	Read(ctx context.Context) (Message, error)
	Write(ctx context.Context, msg Message) error
	Close() error
}

// The project's own transports may offer faster ways of reading than Read
// (in turns, or by pushing; see internal/readmode). The engine finds them
// by type assertion; they are not part of the seam a Stream implements.
type (
	turnReader = readmode.TurnReader[Message]
	pusher     = readmode.Pusher[Message]
	receiver   = readmode.Receiver[Message]
)
