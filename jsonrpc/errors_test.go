package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
)

// A peer's -32601 matches ErrMethodNotFound, whatever its message says,
// and ErrorCode finds the code through wrapping.
func TestErrorResponseMatchesSentinelByCode(t *testing.T) {
	run(t, testErrorResponseMatchesSentinelByCode)
}

func testErrorResponseMatchesSentinelByCode(t *testing.T, m readMode) {
	synctest.Test(t, func(t *testing.T) {
		c, p := newTestConn(t, m, Options{})
		done := make(chan error)
		go func() {
			_, err := c.Call(context.Background(), "tools/list", nil, nil)
			done <- fmt.Errorf("mcp: tools/list: %w", err)
		}()
		req := p.recvRequest()
		p.send(&Response{ID: req.ID, Error: &Error{Code: CodeMethodNotFound, Message: "Method not found"}})
		err := <-done
		if !errors.Is(err, ErrMethodNotFound) {
			t.Errorf("errors.Is(%v, ErrMethodNotFound) = false, want true", err)
		}
		if code, ok := ErrorCode(err); !ok || code != CodeMethodNotFound {
			t.Errorf("ErrorCode(%v) = %d, %v; want %d, true", err, code, ok, CodeMethodNotFound)
		}
	})
}

func TestErrorIsComparesCodesOnly(t *testing.T) {
	cases := []struct {
		err    error
		target error
		want   bool
	}{
		{NewError(CodeMethodNotFound, "nope"), ErrMethodNotFound, true},
		{NewError(CodeInvalidParams, "bad"), ErrMethodNotFound, false},
		{errors.New("method not found"), ErrMethodNotFound, false},
		{fmt.Errorf("wrapped: %w", NewError(CodeUserRejected, "no")), NewError(CodeUserRejected, "the user said no"), true},
		{NewError(CodeMethodNotFound, "nope"), (*Error)(nil), false},
	}
	for _, tc := range cases {
		if got := errors.Is(tc.err, tc.target); got != tc.want {
			t.Errorf("errors.Is(%v, %v) = %v, want %v", tc.err, tc.target, got, tc.want)
		}
	}
}

func TestErrorCodeWithoutAnErrorObject(t *testing.T) {
	for _, err := range []error{nil, errors.New("plain"), ErrClosed, ErrTimeout} {
		if code, ok := ErrorCode(err); ok {
			t.Errorf("ErrorCode(%v) = %d, true; want false", err, code)
		}
	}
}

// A message that already carries the code does not get it twice.
func TestErrorSaysTheCodeOnce(t *testing.T) {
	cases := []struct {
		err  *Error
		want string
	}{
		{NewError(CodeInvalidParams, "MCP error -32602: Unknown tool"), "jsonrpc error: MCP error -32602: Unknown tool"},
		{NewError(CodeInvalidParams, "Unknown tool"), "jsonrpc error -32602: Unknown tool"},
		{NewError(-1, "rejected"), "jsonrpc error -1: rejected"},
	}
	for _, tc := range cases {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// AsError finds an error object, and only an error object: a timeout or a
// closed connection is no answer of the peer.
func TestAsErrorIsNilForOtherErrors(t *testing.T) {
	for _, err := range []error{nil, errors.New("plain"), ErrClosed, ErrTimeout, fmt.Errorf("wrapped: %w", ErrClosed)} {
		if e := AsError(err); e != nil {
			t.Errorf("AsError(%v) = %v, want nil", err, e)
		}
	}
	peer := NewError(CodeInvalidParams, "bad")
	if e := AsError(fmt.Errorf("mcp: tools/call: %w", peer)); e != peer {
		t.Errorf("AsError(wrapped peer error) = %v, want %v", e, peer)
	}
}

// A handler's plain error still reaches the peer as -32603 with its text.
func TestNewResponseTurnsAPlainErrorIntoInternalError(t *testing.T) {
	resp, err := NewResponse(Int64ID(1), nil, errors.New("disk full"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Error == nil || resp.Error.Code != CodeInternalError || resp.Error.Message != "disk full" {
		t.Fatalf("error member = %+v, want -32603 \"disk full\"", resp.Error)
	}
}
