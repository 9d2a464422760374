// Package latecheck is how the MCP client takes a large tools/call result
// that the jsonrpc codec did not check as JSON, to check it while it
// decodes it: one pass over a 16 MB text instead of two (bench/NOTES.md,
// the seventeenth round). It is private to the module on purpose: a
// caller of package jsonrpc that reads a Result raw always gets JSON the
// codec checked, unless it asked for this through Params, which only the
// module can name.
//
// The engine leaves a result unchecked only when the stream gave the frame
// up to it (a stdio line read into a buffer of its own, see
// readmode.FrameDecoder) and the call's params are a *Params. Any other
// response, and one whose call did not ask, is checked before it goes
// anywhere, with the outcome the codec would have had.
package latecheck

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
)

// Params are a request's params that this module encoded, sent by a
// caller that takes the response's result unchecked. The engine sends
// Encoded as it would a jsonenc.Encoded.
type Params struct {
	Encoded jsonenc.Encoded
	// Room, when not nil, is the buffer that Encoded is the params of
	// (Encoded is Room.Params()), with room in front for the
	// engine's progress token: see jsonenc.Roomy.
	Room jsonenc.Roomy
	// Unchecked is set by the engine, before Call returns the result,
	// when the codec did not check the result as JSON (the rest of the
	// frame it did check). The caller must then refuse anything that is
	// not one valid JSON value before it uses any of it.
	Unchecked bool
	// Recheck is set with Unchecked. The caller calls it, once, when the
	// result is not one valid JSON value, and carries on with what it
	// gives. The engine may have guessed where the result ends without
	// walking it (the frame's last member, as peers write them), which
	// only the right guess makes one valid value: Recheck then gives the
	// result the codec finds in the frame, checked, when the frame is
	// valid after all, or the codec's error response (a null result
	// followed by an "error") as the error to return. Otherwise it gives
	// the error to return: the frame is reported and refused as the codec
	// would have refused it. Before
	// calling it, the caller may have rewritten the result's string
	// contents in place, but only before the first byte that is not
	// valid, and each with other valid string content of the same length
	// (so that encoding/json's account of what is wrong, and where, stays
	// the same).
	Recheck func() (json.RawMessage, error)
}
