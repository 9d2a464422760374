package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// refuseBadFrame answers a POSTed body the codec refused (err): 400 with
// the error every transport gives a bad frame (badFrameError), for the
// request's id when it can be read (see readableID). JSON-RPC 2.0 wants
// null only "if there was an error in detecting the id".
func refuseBadFrame(w http.ResponseWriter, err error, body []byte) {
	httpErrorFor(w, http.StatusBadRequest, readableID(body), badFrameError(err))
}

// readableID is the id of a refused frame that is still a request: a JSON
// object with a "method" member and an "id" that is a valid JSON-RPC id
// (a string or an integer). Anything else has no id to answer: the zero
// ID, written as null. A frame without "method" is not answered under its
// id: it would be a response of the client's, and an error under the id
// of one of the client's own requests would read as the answer to it.
//
// It decodes the frame again, once, on the path of a refused frame only.
// Members are matched exactly, as the codec matches them (a map does not
// fold case as struct fields do), and a repeated member counts with its
// last value, as in the codec.
func readableID(frame []byte) jsonrpc.ID {
	var members map[string]json.RawMessage
	if json.Unmarshal(frame, &members) != nil {
		return jsonrpc.ID{}
	}
	if m, ok := members["method"]; !ok || string(m) == "null" {
		return jsonrpc.ID{}
	}
	var id jsonrpc.ID
	if raw, ok := members["id"]; !ok || id.UnmarshalJSON(raw) != nil {
		return jsonrpc.ID{}
	}
	return id
}

// isBatch reports whether body, which the codec refused with err as a
// single message, is JSON whose top level is an array: a JSON-RPC batch
// (see http_batch.go). An array that is not valid JSON stays a parse
// error.
func isBatch(body []byte, err error) bool {
	var d *jsonrpc.DecodeError
	if !errors.As(err, &d) || d.Err != nil {
		return false
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	return len(body) > 0 && body[0] == '['
}
