package transport

import (
	"fmt"
	"io"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// errPipePeerClosed is what Read reports on one end of a Pipe after the
// other end was closed.
var errPipePeerClosed = fmt.Errorf("transport: the other end of the pipe was closed: %w", jsonrpc.ErrClosed)

// Pipe returns two connected in-memory streams, for running a client and a
// server in one process (tests, embedding). Messages go through the same
// JSON-lines encoding and framing as the stdio transport, so what works
// over Pipe works over a child process.
//
// Each end follows the jsonrpc.Stream contract. Closing either end closes
// both: the closing end's Read reports that it was closed, the other end's
// Read that its peer went away (both wrap jsonrpc.ErrClosed), and later
// writes on either fail. Messages not yet read when the pipe closes are
// dropped. Writes block until the other end reads (there is no buffering
// beyond one message in flight each way).
func Pipe() (client, server jsonrpc.Stream) {
	toServerR, toServerW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	var closing atomic.Bool
	var c, s *lineStream
	closeAll := func(peer **lineStream) func() error {
		return func() error {
			if !closing.CompareAndSwap(false, true) {
				return nil // the other end is closing both
			}
			// The peer first, so that its Read reports the close
			// rather than the end of its pipe.
			(*peer).shutdown(errPipePeerClosed)
			toServerW.Close()
			toClientW.Close()
			toServerR.Close()
			toClientR.Close()
			return nil
		}
	}
	c = newLineStream(toClientR, toServerW, lineStreamConfig{close: closeAll(&s)})
	s = newLineStream(toServerR, toClientW, lineStreamConfig{close: closeAll(&c)})
	return c, s
}
