package jsonrpc

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// callError is an error of Call whose text is written for people and
// which may wrap several errors at once (ErrClosed and the cause, or the
// caller's context error and its cause).
type callError struct {
	msg     string
	reason  string // for notifications/cancelled; empty when none is sent
	method  string // the request's
	wrapped []error
}

func (e *callError) Error() string   { return e.msg }
func (e *callError) Unwrap() []error { return e.wrapped }

// Method is the method of the request that the error ended, "" when not
// known. The type is unexported: a caller that words errors for people
// (the CLI names the request a server left unanswered) asks through an
// interface with this method.
func (e *callError) Method() string { return e.method }

// callerError says that the caller's ctx ended the call: cancelled, or its
// own deadline passed. It wraps the ctx's error (context.Canceled or
// context.DeadlineExceeded), never ErrTimeout: that one is for the
// deadline the engine set, so a caller can tell its own limit from ours.
func callerError(ctx context.Context, method string, id int64) error {
	err := ctx.Err()
	cause := context.Cause(ctx)
	if err == context.DeadlineExceeded {
		e := &callError{
			msg:     fmt.Sprintf("jsonrpc: %s (id %d) hit the caller's context deadline", method, id),
			reason:  "the caller's deadline passed",
			method:  method,
			wrapped: []error{context.DeadlineExceeded},
		}
		if cause != nil && cause != err {
			e.msg += ": " + cause.Error()
			e.wrapped = append(e.wrapped, cause)
		}
		return e
	}
	e := &callError{
		msg:     fmt.Sprintf("jsonrpc: %s (id %d) canceled by caller", method, id),
		reason:  "canceled by caller",
		method:  method,
		wrapped: []error{err},
	}
	if cause != nil && cause != err {
		e.msg += ": " + cause.Error()
		e.wrapped = append(e.wrapped, cause)
	}
	return e
}

// timeoutError says that the call's own deadline passed, and whether
// progress had moved it and up to the ceiling. The figures are the
// call's own (its Timeout and MaxTimeout, which CallOptions may set apart
// from the connection's). It wraps ErrTimeout only: the caller's ctx did
// not end, so context.DeadlineExceeded would be a false lead.
func (c *Conn) timeoutError(p *pendingCall) error {
	var reason string
	var start, deadline, ceiling time.Time
	c.update(func(s *inFlight) { start, deadline, ceiling = p.start, p.deadline, p.ceiling })
	timeout := p.timeout
	switch {
	case p.onProgress == nil || deadline.Sub(start) <= timeout:
		reason = fmt.Sprintf("timed out after %s", timeout)
	case !ceiling.IsZero() && !deadline.Before(ceiling):
		reason = fmt.Sprintf("timed out after %s: progress may not extend a call beyond its MaxTimeout (%s)", deadline.Sub(start), ceiling.Sub(start))
	default:
		reason = fmt.Sprintf("timed out after %s: no progress for %s", deadline.Sub(start), timeout)
	}
	return &callError{
		msg:     fmt.Sprintf("jsonrpc: %s (id %d) %s", p.method, p.id, reason),
		reason:  reason,
		method:  p.method,
		wrapped: []error{ErrTimeout},
	}
}

// closedCallError says that the connection ended before the call had its
// answer; it wraps ErrClosed and the cause.
func closedCallError(method string, id int64, ended error) error {
	return &callError{
		msg:     fmt.Sprintf("jsonrpc: %s (id %d): %s", method, id, strings.TrimPrefix(ended.Error(), "jsonrpc: ")),
		method:  method,
		wrapped: []error{ended},
	}
}

// cancelReason is the "reason" of the notifications/cancelled sent for a
// call that ended with why.
func cancelReason(why error) string {
	if e, ok := why.(*callError); ok && e.reason != "" {
		return e.reason
	}
	return "the caller gave up"
}
