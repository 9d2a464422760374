// Package jsonrpc implements the JSON-RPC 2.0 layer that every mcpwire
// transport shares: the message model, a strict codec, and Conn, the one
// engine that correlates requests with responses, enforces deadlines, sends
// cancellations, routes progress and dispatches the peer's requests and
// notifications.
//
// A transport only moves messages (see Stream); everything about ids and
// in-flight state lives here, so a bug fixed here is fixed for stdio,
// Streamable HTTP and legacy SSE at once.
package jsonrpc

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/mcpwire/mcpwire/internal/jsonenc"
	"github.com/mcpwire/mcpwire/internal/latecheck"
)

// jsonrpcVersion is the only value the "jsonrpc" member may take.
const jsonrpcVersion = "2.0"

// ID identifies a request. It is either an integer or a string; the zero
// ID is "no id", which is what notifications have and what an error
// response carries when the request id could not be read. JSON null is
// never a valid request id.
type ID struct {
	str   string
	num   int64
	isStr bool
	valid bool
}

// Int64ID returns an integer id.
func Int64ID(n int64) ID { return ID{num: n, valid: true} }

// StringID returns a string id.
func StringID(s string) ID { return ID{str: s, isStr: true, valid: true} }

// IsValid reports whether the id is set (integer or string).
func (id ID) IsValid() bool { return id.valid }

// IsString reports whether the id is a string id.
func (id ID) IsString() bool { return id.valid && id.isStr }

// Int64 returns the integer value and whether the id is an integer id.
func (id ID) Int64() (int64, bool) { return id.num, id.valid && !id.isStr }

// Raw returns the id as a Go value: int64, string, or nil when unset.
func (id ID) Raw() any {
	switch {
	case !id.valid:
		return nil
	case id.isStr:
		return id.str
	default:
		return id.num
	}
}

// String formats the id for humans and logs: integers plainly, strings
// quoted, so 7 and "7" stay distinguishable.
func (id ID) String() string {
	switch {
	case !id.valid:
		return "<none>"
	case id.isStr:
		return strconv.Quote(id.str)
	default:
		return strconv.FormatInt(id.num, 10)
	}
}

// MarshalJSON encodes the id; an unset id encodes as null, which is only
// legal in an error response to an unreadable request.
func (id ID) MarshalJSON() ([]byte, error) { return id.appendJSON(nil), nil }

func (id ID) appendJSON(b []byte) []byte {
	switch {
	case !id.valid:
		return append(b, "null"...)
	case id.isStr:
		return jsonenc.AppendString(b, id.str)
	default:
		return strconv.AppendInt(b, id.num, 10)
	}
}

// UnmarshalJSON decodes a string or integer id. null yields the unset id;
// floats, booleans, objects and arrays are errors.
func (id *ID) UnmarshalJSON(data []byte) error {
	v, err := parseID(data)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// Message is one JSON-RPC message: *Request, *Notification or *Response.
type Message interface {
	// isMessage keeps the set of message kinds closed.
	isMessage()
}

// Request is a call that expects a Response with the same ID.
type Request struct {
	ID     ID
	Method string
	// Params is the raw "params" member, nil when absent.
	Params json.RawMessage
}

// Notification is a one-way message; it has no id and gets no answer.
type Notification struct {
	Method string
	// Params is the raw "params" member, nil when absent.
	Params json.RawMessage
}

// Response answers the Request with the same ID. Exactly one of Result and
// Error is set.
type Response struct {
	// ID is unset only for an error response to a request whose id
	// could not be read.
	ID     ID
	Result json.RawMessage
	Error  *Error

	// late is set by the engine's decoding of a frame given up to it
	// when Result was not checked (see late.go); nil for every Response
	// that leaves the engine otherwise.
	late *lateResult
}

func (*Request) isMessage()      {}
func (*Notification) isMessage() {}
func (*Response) isMessage()     {}

// NewRequest builds a request, encoding params (nil means no params).
func NewRequest(id ID, method string, params any) (*Request, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: encoding params of %s: %w", method, err)
	}
	return &Request{ID: id, Method: method, Params: raw}, nil
}

// NewNotification builds a notification, encoding params (nil means none).
func NewNotification(method string, params any) (*Notification, error) {
	raw, err := marshalParams(params)
	if err != nil {
		return nil, fmt.Errorf("jsonrpc: encoding params of %s: %w", method, err)
	}
	return &Notification{Method: method, Params: raw}, nil
}

// NewResponse builds a response to id. A non-nil err becomes the error
// member (a *Error is used as is; other errors become -32603 internal
// errors); otherwise result is encoded (nil encodes as {}).
func NewResponse(id ID, result any, err error) (*Response, error) {
	if err != nil {
		return &Response{ID: id, Error: wireError(err)}, nil
	}
	if result == nil {
		return &Response{ID: id, Result: json.RawMessage("{}")}, nil
	}
	if raw, ok := result.(json.RawMessage); ok {
		return &Response{ID: id, Result: raw}, nil
	}
	raw, mErr := json.Marshal(result)
	if mErr != nil {
		return nil, fmt.Errorf("jsonrpc: encoding result for id %s: %w", id, mErr)
	}
	return &Response{ID: id, Result: raw}, nil
}

func marshalParams(params any) (json.RawMessage, error) {
	raw, _, err := marshalParamsTrusted(params)
	return raw, err
}

// marshalParamsTrusted is marshalParams that also reports whether the
// bytes are known valid: encoded here, or by this module (jsonenc.Encoded),
// rather than a caller's json.RawMessage.
func marshalParamsTrusted(params any) (json.RawMessage, bool, error) {
	switch p := params.(type) {
	case nil:
		return nil, true, nil
	case json.RawMessage:
		return p, false, nil
	case jsonenc.Encoded:
		return json.RawMessage(p), true, nil
	case *latecheck.Params:
		return json.RawMessage(p.Encoded), true, nil
	case *jsonenc.Roomy:
		return json.RawMessage(p.Params()), true, nil
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, false, err
	}
	if string(raw) == "null" {
		return nil, true, nil
	}
	return raw, true, nil
}
