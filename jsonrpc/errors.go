package jsonrpc

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Standard JSON-RPC 2.0 error codes, and the ones MCP adds.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603

	// CodeResourceNotFound is MCP's "resource not found" (up to 2025-11-25).
	CodeResourceNotFound = -32002
	// CodeURLElicitationRequired carries data.elicitations (2025-11-25).
	CodeURLElicitationRequired = -32042
	// CodeUserRejected is what a client answers when the user declines sampling.
	CodeUserRejected = -1
)

// Error is a JSON-RPC error object, as received from or sent to a peer. It
// is the one typed protocol error in mcpwire: inspect it with errors.As.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error formats the code and message; Data is left out because it is the
// peer's arbitrary payload and may be large. Peers often put the code in
// the message already ("MCP error -32602: …"); it is then said once.
func (e *Error) Error() string {
	code := strconv.FormatInt(e.Code, 10)
	if strings.Contains(e.Message, code) {
		return "jsonrpc error: " + e.Message
	}
	return "jsonrpc error " + code + ": " + e.Message
}

// Is reports whether target is a *Error with the same code, so that a
// sentinel such as ErrMethodNotFound matches every error response that
// carries its code, whatever the peer's message says:
//
//	errors.Is(err, jsonrpc.ErrMethodNotFound) // the peer answered -32601
//
// A package that declares its own sentinel as a *Error (say, for an
// application code) gets the same matching for free.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t != nil && e != nil && t.Code == e.Code
}

// ErrorCode returns the JSON-RPC code of the first *Error in err's chain,
// and whether there is one: the code the peer answered with, or the one a
// handler's error will be sent with.
func ErrorCode(err error) (code int64, ok bool) {
	var e *Error
	if errors.As(err, &e) {
		return e.Code, true
	}
	return 0, false
}

// NewError returns an error object with the given code and message.
func NewError(code int64, message string) *Error {
	return &Error{Code: code, Message: message}
}

// AsError returns the *Error in err's chain (the peer's answer, or what a
// handler returned to be sent as is), or nil when err is not a JSON-RPC
// error (a timeout, a closed connection, a local failure).
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// wireError is the error object sent for err: a *Error in its chain as it
// is, anything else as -32603 with err's text.
func wireError(err error) *Error {
	if e := AsError(err); e != nil {
		return e
	}
	return &Error{Code: CodeInternalError, Message: err.Error()}
}

// Sentinel errors of the engine. Errors returned by Conn wrap them, so test
// with errors.Is.
var (
	// ErrClosed: the connection is closed or ended before the call completed.
	ErrClosed = errors.New("jsonrpc: connection closed")
	// ErrTimeout: the call's own deadline (the connection's or the call's
	// timeout, or the progress ceiling) passed before a response came. A
	// call ended by the caller's ctx deadline matches
	// context.DeadlineExceeded instead, never ErrTimeout.
	ErrTimeout = errors.New("jsonrpc: request timed out")
	// ErrMethodNotFound matches (errors.Is) every error response with
	// code -32601, and can be returned by a Handler to answer -32601.
	ErrMethodNotFound = &Error{Code: CodeMethodNotFound, Message: "method not found"}
)

// DecodeError reports a frame that is not a valid JSON-RPC message. A
// transport's Read returns it for one bad frame and stays usable; the engine
// reports it to the error hook and reads on; when it is the response to a
// pending call (see ID), that call fails with a CodeParseError *Error too.
type DecodeError struct {
	// Reason says what is wrong, e.g. `missing "jsonrpc" member`.
	Reason string
	// Excerpt is the start of the offending frame, at most 200 bytes.
	Excerpt string
	// Err is why the frame could not be read as JSON: its syntax error
	// when it is not JSON at all, or the reader's error for a frame it
	// did not read whole (one over a size limit). It is nil for JSON that
	// is not a valid message, which JSON-RPC 2.0 answers with -32600
	// Invalid Request rather than -32700 Parse error.
	Err error
	// ID is the id of a frame that can only be a response (it has an id
	// and no "method") but is not a valid one, such as one without
	// "jsonrpc" or with an error whose code is not an integer; the zero
	// ID otherwise. The call it answers will get no other response: the
	// engine fails that call with this error instead of letting it wait
	// for its deadline.
	ID ID
}

func (e *DecodeError) Error() string {
	if e.Excerpt == "" {
		return "jsonrpc: invalid message: " + e.Reason
	}
	return fmt.Sprintf("jsonrpc: invalid message: %s (frame starts %q)", e.Reason, e.Excerpt)
}

func (e *DecodeError) Unwrap() error { return e.Err }

const excerptLimit = 200

func newDecodeError(frame []byte, reason string, err error) *DecodeError {
	return &DecodeError{Reason: reason, Excerpt: frameExcerpt(frame), Err: err}
}

// frameExcerpt is the start of a frame as a DecodeError shows it.
func frameExcerpt(frame []byte) string {
	return string(frame[:min(len(frame), excerptLimit)])
}

// IsDecodeError reports whether err is (or wraps) a *DecodeError, that is a
// bad frame after which the stream is still usable.
func IsDecodeError(err error) bool {
	var d *DecodeError
	return errors.As(err, &d)
}
