// Package readmode holds the two ways of reading a stream that the
// project's own transports offer the jsonrpc engine besides a plain Read:
// reading in turns and pushing. They are private to the module on purpose:
// a third-party transport implements only jsonrpc.Stream (Read, Write,
// Close), and the engine finds these abilities by type assertion, so they
// can change without breaking anyone.
//
// The interfaces are generic in the message type because this package sits
// below jsonrpc and cannot name jsonrpc.Message; the engine and the
// transports both instantiate them with jsonrpc.Message.
package readmode

import "time"

// TurnReader is a stream that can be read in turns, on whichever goroutine
// the engine picks, instead of on one read goroutine. With it, a caller
// waiting for its response reads the stream itself while nobody else does,
// so that its response costs no goroutine handoff.
//
// ReadTurn reads on the calling goroutine and passes each message, or a
// decode error for a frame it skipped, to to.Receive, in arrival order,
// until Receive returns false, the deadline passes (zero: none), or
// Interrupt is called; it then returns nil, and the next turn goes on
// where this one stopped, with a message that was cut short or the rest of
// a batch. It returns a non-nil error only when the stream ended, the
// error Read would return; every later turn returns it again. The engine
// never runs two turns at once, and never mixes ReadTurn with Read.
//
// Interrupt makes the turn that is running, if any, return soon. It may be
// called from any goroutine and must not block; an Interrupt with no turn
// running may end the next turn early, which the engine tolerates (a turn
// that ends early is simply taken again).
type TurnReader[M any] interface {
	ReadTurn(deadline time.Time, to Receiver[M]) error
	Interrupt()
}

// Receiver takes the messages of a turn or of a pushing stream. It is an
// interface rather than a func so that a caller's turn allocates nothing.
type Receiver[M any] interface {
	Receive(msg M, err error) bool
}

// Awaiter is a Receiver whose turn waits for a reply it knows is coming
// (a caller reading the reply to its own request): a stream may then keep
// its read buffer and read at once, rather than first ask the source
// whether input is there, as it does for a turn that may wait long.
type Awaiter interface {
	AwaitsReply() bool
}

// FrameDecoder is a Receiver that decodes, itself, each frame that the
// stream gives up (a line read into a buffer of its own, which the
// stream would decode with jsonrpc.AppendFrameRetaining): the engine may
// then leave a large result unchecked for the one caller that checks it
// as it decodes it (see package latecheck). A stream reading in turns
// hands such frames to DecodeGivenUp instead, and treats what it returns
// as it would AppendFrameRetaining's; scrub is what the stream does to
// the decode errors it passes on (taking secrets out of them), for the
// receiver to do to one it finds later. A stream must not hand it frames
// read for anyone but the engine.
type FrameDecoder[M any] interface {
	DecodeGivenUp(dst []M, frame []byte, scrub func(error)) ([]M, error)
}

// Pusher is a stream whose messages are read on goroutines of its own
// anyway, such as an HTTP reply, read by the goroutine that posted the
// request. Instead of queueing each message for Read, such a stream hands
// it straight to the engine, which then runs no read goroutine at all: an
// idle connection costs no goroutine, and a response reaches its caller
// with one handoff fewer.
//
// Push is called once, instead of Read, before any Write; it returns at
// once. From then on the stream passes each message it receives, or a
// decode error for one it could not read, to to.Receive, from any of its
// goroutines, concurrently: messages from one source (one reply, one
// event stream) in their order. Receive does not block for long; when it
// returns false the connection is over and the stream may stop reading.
// When the stream ends, it calls ended once, with the error Read would
// return then; ended must not wait for the stream's goroutines.
type Pusher[M any] interface {
	Push(to Receiver[M], ended func(error))
}

// Parker is a TurnReader that can also wait for input with no goroutine
// at all: the engine's read goroutine, holding the turn on an idle
// connection, parks the stream and ends, and the stream starts it again
// through ready. An idle connection then costs no goroutine and no stack.
//
// Park arranges for ready to be called once, on a goroutine of the
// stream's and never from within Park, when the stream has input, has
// ended, or its peer is gone. It reports parked false when it cannot
// park: retry true means input is already buffered in the stream (read it
// in a turn, then park again), false that the stream cannot park now (read
// in turns as before). Unpark cancels a pending Park and reports whether
// it did; false means ready has been called or is being called. Park and
// Unpark are never called during a turn, and Close drops a pending Park
// without calling ready.
type Parker interface {
	Park(ready func()) (parked, retry bool)
	Unpark() bool
}
