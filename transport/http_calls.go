package transport

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// maxFreeCalls bounds the postCalls a stream keeps for reuse: as many as
// there are concurrent callers in a busy agent, like the idle connections.
const maxFreeCalls = maxIdlePerHost

// postCall is one POST that Write sends and, for a request, the reply
// stream it started. The transport keeps it to tie the reply's life to
// the request: the reply is closed when notifications/cancelled for the
// request is written, and a reply that cannot deliver the response fails
// the call in-band.
//
// The POST itself runs on a goroutine of the stream (runPost), so that
// Write can give up when its ctx ends without linking that ctx to the
// request's: Write then cancels the call's ctx, which aborts the POST.
//
// A postCall whose ctx was never cancelled is reused by later Writes (see
// takeCall), ctx included: the context, its done channel and the set of
// children net/http adds each request's context to are made once per
// postCall rather than once per POST, and so is the *http.Request, which
// RoundTrippers let the caller reuse once the reply body was closed. The
// body reader is not reused: net/http may still be reading it after the
// reply was read (a server may answer before reading the whole request),
// and nothing says when it stops.
type postCall struct {
	// ctx bounds the POST, its reply body and its resumption; stop ends
	// it when the Write's ctx ends before the reply headers, when the
	// request is cancelled, and with the stream.
	ctx  context.Context
	stop context.CancelFunc
	// done carries the POST's outcome from runPost to Write (capacity 1).
	done chan postOutcome
	// getBody is the requests' GetBody, made once; it reads body.
	getBody func() (io.ReadCloser, error)
	// req is the POST, rebuilt in place for each use.
	req *http.Request

	// Set by Write before each use; read-only while the POST is in
	// flight.
	id      jsonrpc.ID
	method  string // the JSON-RPC method, or what a one-way message is
	body    []byte
	initial bool   // the engine's initialize: no session headers
	params  []byte // initialize's, kept to repeat it
	oneWay  bool   // a notification or response: no reply to read

	cancelled atomic.Bool
}

// postOutcome is what runPost tells Write once the reply headers were
// examined.
type postOutcome struct {
	// resp is a reply handed back for Write to deal with: a status other
	// than 2xx. Write owns the call again.
	resp *http.Response
	info sent
	err  error
	// kept means runPost reads the reply and finishes the call; Write
	// must not touch it any more.
	kept bool
}

// takeCall returns a postCall for one Write: a free one, or a new one.
func (s *httpStream) takeCall() *postCall {
	s.mu.Lock()
	if n := len(s.free); n > 0 {
		c := s.free[n-1]
		s.free[n-1] = nil
		s.free = s.free[:n-1]
		s.mu.Unlock()
		return c
	}
	s.mu.Unlock()
	c := &postCall{done: make(chan postOutcome, 1)}
	c.ctx, c.stop = context.WithCancel(s.ctx)
	c.req = new(http.Request).WithContext(c.ctx)
	c.getBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(c.body)), nil }
	return c
}

// recycle keeps c for a later Write unless its ctx was cancelled (the
// stream ended, or the call was aborted), in which case, or when enough
// are kept, it is dropped. Only c's last owner calls it.
func (s *httpStream) recycle(c *postCall) {
	if c.ctx.Err() != nil {
		return
	}
	c.id, c.method, c.body, c.params = jsonrpc.ID{}, "", nil, nil
	c.initial, c.oneWay = false, false
	c.req.Body, c.req.Header = nil, nil // let the body and an old header go
	c.cancelled.Store(false)
	s.mu.Lock()
	if !s.ended && len(s.free) < maxFreeCalls {
		s.free = append(s.free, c)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	c.stop() // detaches its ctx from the stream's
}

// request returns c's POST with the shared, read-only header h.
func (c *postCall) request(s *httpStream, h http.Header) *http.Request {
	r := c.req
	r.Method = http.MethodPost
	r.URL = s.url
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.Header = h
	r.Host = s.url.Host
	r.ContentLength = int64(len(c.body))
	// A *bytes.Reader in io.NopCloser is what net/http recognises as a
	// body in memory: it writes it with the headers in one go.
	r.Body = io.NopCloser(bytes.NewReader(c.body))
	r.GetBody = c.getBody
	return r
}

// register records a request's call so that notifications/cancelled can
// find it; false means the stream is over.
func (s *httpStream) register(c *postCall) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return false
	}
	s.calls[c.id] = c
	return true
}

// finishCall forgets a request's call and recycles it.
func (s *httpStream) finishCall(c *postCall) {
	s.mu.Lock()
	if s.calls[c.id] == c {
		delete(s.calls, c.id)
	}
	s.mu.Unlock()
	s.recycle(c)
}

// cancelCall marks the request id as cancelled by the caller and closes
// its reply. Nothing is delivered for it afterwards: the engine already
// gave up. It runs under the stream's lock, so it cannot meet a call that
// was finished and reused meanwhile.
func (s *httpStream) cancelCall(id jsonrpc.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.calls[id]; c != nil {
		c.cancelled.Store(true)
		c.stop()
	}
}

// failCall delivers a synthesized error response so that exactly this call
// fails with a transport reason, unless the caller cancelled it.
func (s *httpStream) failCall(c *postCall, code int64, message string) {
	if c.cancelled.Load() {
		return
	}
	r := &jsonrpc.Response{ID: c.id, Error: &jsonrpc.Error{Code: code, Message: message}}
	s.deliver(s.ctx, inboundItem{msg: r})
}
