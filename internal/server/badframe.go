package server

import (
	"errors"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// badFrameError is the error of the answer to a frame that did not decode
// as a message (err, a *jsonrpc.DecodeError or a join of them), the same
// on every transport. JSON-RPC 2.0 answers bytes that are not JSON at all
// with -32700 Parse error, and JSON that is not a valid message ([], 3, an
// object without "method" or "id") with -32600 Invalid Request; the codec
// tells them apart by whether it could read the frame as JSON
// (DecodeError.Err). A frame a reader did not take whole (too large) was
// never parsed, so it stays a parse error.
func badFrameError(err error) *jsonrpc.Error {
	var d *jsonrpc.DecodeError
	if errors.As(err, &d) && d.Err == nil {
		return jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	return jsonrpc.NewError(jsonrpc.CodeParseError, "Parse error: "+err.Error())
}
