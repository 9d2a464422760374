package jsonrpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// readLoop is the connection's only reader. It never blocks on anything but
// the stream: responses are handed to their caller, requests to a new
// handler goroutine, notifications to the delivery queue.
func (c *Conn) readLoop() {
	life := c.lifeCtx()
	for {
		msg, err := c.stream.Read(life)
		if more, _, why := c.take(msg, err); !more {
			c.end(why, false)
			return
		}
	}
}

// ended reports whether the connection is over.
func (c *Conn) ended() bool {
	return c.over.Load()
}

// take acts on one result of reading the stream. It returns false, with
// the reason, when reading must stop: a terminal error, a broken stream,
// or the connection having ended. woke says that the message gave the
// call holding the turn to read (see turns.go) its response or progress.
func (c *Conn) take(msg Message, err error) (more, woke bool, why error) {
	if err != nil {
		if IsDecodeError(err) && !c.ended() {
			woke := c.failAnswered(err)
			// Reported either way: it is the peer's protocol error,
			// whether or not a call was waiting for the frame.
			c.reportUnreadable(err)
			return true, woke, nil
		}
		return false, false, err
	}
	if c.ended() {
		return false, false, context.Canceled
	}
	switch m := msg.(type) {
	case *Response:
		if m != nil && m.late != nil && !c.takesLate(m) {
			if d := m.checkLate(); d != nil {
				return c.take(nil, d)
			}
		}
		if m != nil {
			return true, c.handleResponse(m), nil
		}
	case *Request:
		if m != nil {
			c.handleRequest(m)
			return true, false, nil
		}
	case *Notification:
		if m != nil {
			return true, c.handleNotification(m), nil
		}
	case nil:
		// Neither a message nor an error breaks the Stream contract;
		// reading on could spin for ever.
		return false, false, errors.New("jsonrpc: the stream's Read returned neither a message nor an error")
	}
	c.report(fmt.Errorf("jsonrpc: the stream returned a nil %T; skipped", msg))
	return true, false, nil
}

// handleResponse passes a response to its pending call. It reports
// whether that call holds the turn to read.
func (c *Conn) handleResponse(r *Response) (woke bool) {
	if !r.ID.IsValid() {
		// The peer could not read one of our messages, and not even its id.
		c.report(fmt.Errorf("jsonrpc: the peer sent an error response without an id (it could not read a message of ours): %s", excerptOf(r)))
		return false
	}
	id, isInt := r.ID.Int64()
	var found *pendingCall
	late := false
	if isInt {
		c.update(func(s *inFlight) {
			if p := s.calls.get(id); p != nil {
				s.calls.del(id)
				p.recordLocked(r, nil)
				found, woke = p, p == s.turnCall
				return
			}
			late = s.abandoned.take(id)
		})
	}
	if found != nil {
		found.wake()
		return woke
	}
	if late {
		// A late answer to a call its caller gave up on is expected
		// (the peer may not have seen our cancel in time): dropped.
		return woke
	}
	what := "a response to unknown id " + r.ID.String()
	if isInt && id >= 1 && id <= c.lastID.Load() {
		what = "a duplicate response to id " + r.ID.String() + ", which was already answered"
	}
	c.report(fmt.Errorf("jsonrpc: the peer sent %s; dropped: %s", what, excerptOf(r)))
	return false
}

// failAnswered fails the pending call that a bad frame was the response
// to (see DecodeError.ID): no other response will come, and waiting for
// the deadline would only hide why. It reports whether that call holds
// the turn to read. The frame is reported to the error hook all the same
// (see take).
func (c *Conn) failAnswered(err error) (woke bool) {
	var d *DecodeError
	if !errors.As(err, &d) {
		return false
	}
	id, isInt := d.ID.Int64()
	if !d.ID.IsValid() || !isInt {
		return false
	}
	c.update(func(s *inFlight) {
		p := s.calls.get(id)
		if p == nil {
			return
		}
		s.calls.del(id)
		p.finishLocked(&Response{ID: d.ID, Error: unreadableResponse(p.method, id, d)}, nil)
		woke = p == s.turnCall
	})
	return woke
}

// reportUnreadable reports a frame of the peer's that could not be read.
func (c *Conn) reportUnreadable(err error) {
	c.report(fmt.Errorf("jsonrpc: skipped an unreadable message from the peer: %w", err))
}

// incomingRequest is a request of the peer whose handler is running.
type incomingRequest struct {
	cancel context.CancelFunc
	// cancelled is set (under Conn.mu) when the peer cancelled the
	// request; no response is sent then.
	cancelled bool
}

// handleRequest starts a handler goroutine for a request of the peer.
func (c *Conn) handleRequest(req *Request) {
	ctx, cancel := context.WithCancel(c.lifeCtx())
	in := &incomingRequest{cancel: cancel}
	dup, started := false, false
	c.update(func(s *inFlight) {
		if _, dup = s.handling[req.ID]; dup {
			return
		}
		if started = c.spawnLocked(s, func() { c.serve(ctx, in, req) }); started {
			if s.handling == nil {
				s.handling = make(map[ID]*incomingRequest)
			}
			s.handling[req.ID] = in
		}
	})
	if !started {
		cancel()
	}
	if dup {
		c.report(fmt.Errorf("jsonrpc: the peer sent %s request id %s while a request with that id is still being handled; ignored", req.Method, req.ID))
	}
}

// serve runs the handler for req and sends its response, unless the peer
// cancelled the request or the connection ended meanwhile.
func (c *Conn) serve(ctx context.Context, in *incomingRequest, req *Request) {
	result, err := c.callHandler(ctx, req)
	skip := false
	now := time.Now()
	c.update(func(s *inFlight) {
		delete(s.handling, req.ID)
		skip = in.cancelled || s.ended != nil
		if req.Method != methodPing { // a keep-alive says nothing of a call
			s.pushIdleDeadlinesLocked(now)
		}
	})
	in.cancel()
	if skip {
		return
	}
	resp, rerr := NewResponse(req.ID, result, err)
	if rerr != nil {
		c.report(fmt.Errorf("jsonrpc: handler for %s (id %s): %w", req.Method, req.ID, rerr))
		resp = &Response{ID: req.ID, Error: NewError(CodeInternalError, "the result could not be encoded")}
	}
	if werr := c.stream.Write(c.lifeCtx(), resp); werr != nil && c.Err() == nil {
		c.report(fmt.Errorf("jsonrpc: could not send the response to %s (id %s): %w", req.Method, req.ID, werr))
	}
}

// callHandler runs the handler, turning "no handler", ErrMethodNotFound and
// a panic into the proper error responses.
func (c *Conn) callHandler(ctx context.Context, req *Request) (result any, err error) {
	if c.handler == nil {
		return nil, methodNotFound(req.Method)
	}
	defer func() {
		if v := recover(); v != nil {
			c.report(fmt.Errorf("jsonrpc: handler for %s (id %s) panicked: %v", req.Method, req.ID, v))
			result, err = nil, NewError(CodeInternalError, "internal error: the handler failed")
		}
	}()
	result, err = c.handler(ctx, c, req)
	// The bare sentinel gets the method's name; a -32601 of the
	// handler's own making is sent as it is.
	if e := (*Error)(nil); err != nil && errors.As(err, &e) && e == ErrMethodNotFound {
		err = methodNotFound(req.Method)
	}
	return result, err
}

func methodNotFound(method string) *Error {
	if len(method) > 100 {
		method = method[:100] + "…"
	}
	return NewError(CodeMethodNotFound, "method not found: "+method)
}

// handleNotification acts on the notifications the engine understands and
// queues every notification for the subscribers. It reports whether the
// notification was progress for the call holding the turn to read.
func (c *Conn) handleNotification(n *Notification) (woke bool) {
	switch n.Method {
	case MethodCancelled:
		c.peerCancelled(n)
	case MethodProgress:
		woke = c.routeProgress(n)
	}
	c.enqueue(n)
	return woke
}

// peerCancelled cancels the handler of the request the peer gave up on.
// Unknown and finished ids are ignored: such races are normal.
func (c *Conn) peerCancelled(n *Notification) {
	var params struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if len(n.Params) == 0 || json.Unmarshal(n.Params, &params) != nil || len(params.RequestID) == 0 {
		c.report(fmt.Errorf("jsonrpc: the peer sent %s without a readable requestId: params %s", MethodCancelled, excerpt(n.Params)))
		return
	}
	id, err := parseID(params.RequestID)
	if err != nil || !id.IsValid() {
		c.report(fmt.Errorf("jsonrpc: the peer sent %s with a bad requestId %s", MethodCancelled, excerpt(params.RequestID)))
		return
	}
	c.update(func(s *inFlight) {
		if in := s.handling[id]; in != nil {
			in.cancelled = true
			in.cancel()
		}
	})
}

// excerptOf encodes m for an error message, cut to a readable length.
func excerptOf(m Message) string {
	b, err := EncodeMessage(m)
	if err != nil {
		return fmt.Sprintf("<%T that does not encode: %v>", m, err)
	}
	if len(b) > excerptLimit {
		return string(b[:excerptLimit]) + "…"
	}
	return string(b)
}

// abandonedIDs remembers the ids of calls that were given up, up to a
// bound, so a late response can be told from an unknown or duplicate one.
// When more than abandonedLimit are outstanding the oldest are forgotten;
// a very late answer to one of those is then reported as a duplicate.
type abandonedIDs struct {
	set   map[int64]struct{}
	order []int64
}

const abandonedLimit = 1024

func (a *abandonedIDs) add(id int64) {
	if a.set == nil {
		a.set = make(map[int64]struct{})
	}
	a.set[id] = struct{}{}
	a.order = append(a.order, id)
	for len(a.set) > abandonedLimit {
		delete(a.set, a.order[0])
		a.order = a.order[1:]
	}
	if len(a.order) > 2*abandonedLimit {
		// Drop ids already taken by their late response.
		kept := make([]int64, 0, len(a.set))
		for _, v := range a.order {
			if _, ok := a.set[v]; ok {
				kept = append(kept, v)
			}
		}
		a.order = kept
	}
}

// take reports whether id was abandoned, and forgets it: a second
// response to it is a duplicate.
func (a *abandonedIDs) take(id int64) bool {
	if _, ok := a.set[id]; !ok {
		return false
	}
	delete(a.set, id)
	return true
}
