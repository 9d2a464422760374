package jsonrpc

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// callError is an error of Call whose text is written for people and
// which wraps several sentinels at once (ErrTimeout and
// context.DeadlineExceeded, or ErrClosed and the cause).
type callError struct {
	msg     string
	reason  string // for notifications/cancelled; empty when none is sent
	wrapped []error
}

func (e *callError) Error() string   { return e.msg }
func (e *callError) Unwrap() []error { return e.wrapped }

// callerError says that the caller's ctx ended the call: cancelled, or its
// own deadline passed.
func callerError(ctx context.Context, method string, id int64) error {
	err := ctx.Err()
	cause := context.Cause(ctx)
	if err == context.DeadlineExceeded {
		e := &callError{
			msg:     fmt.Sprintf("jsonrpc: %s (id %d) hit the caller's context deadline", method, id),
			reason:  "the caller's deadline passed",
			wrapped: []error{ErrTimeout, context.DeadlineExceeded},
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
		wrapped: []error{err},
	}
	if cause != nil && cause != err {
		e.msg += ": " + cause.Error()
		e.wrapped = append(e.wrapped, cause)
	}
	return e
}

// timeoutError says that the call's own deadline passed, and whether
// progress had moved it and up to the ceiling.
func (c *Conn) timeoutError(p *pendingCall) error {
	var reason string
	var start, deadline, ceiling time.Time
	c.update(func(s *inFlight) { start, deadline, ceiling = p.start, p.deadline, p.ceiling })
	timeout := p.timeout
	switch {
	case p.onProgress == nil || deadline.Sub(start) <= timeout:
		reason = fmt.Sprintf("timed out after %s", timeout)
	case !ceiling.IsZero() && !deadline.Before(ceiling):
		reason = fmt.Sprintf("timed out after %s: progress may not extend a call beyond MaxTimeout (%s)", deadline.Sub(start), c.maxTimeout)
	default:
		reason = fmt.Sprintf("timed out after %s: no progress for %s", deadline.Sub(start), timeout)
	}
	return &callError{
		msg:     fmt.Sprintf("jsonrpc: %s (id %d) %s", p.method, p.id, reason),
		reason:  reason,
		wrapped: []error{ErrTimeout, context.DeadlineExceeded},
	}
}

// closedCallError says that the connection ended before the call had its
// answer; it wraps ErrClosed and the cause.
func closedCallError(method string, id int64, ended error) error {
	return &callError{
		msg:     fmt.Sprintf("jsonrpc: %s (id %d): %s", method, id, strings.TrimPrefix(ended.Error(), "jsonrpc: ")),
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
