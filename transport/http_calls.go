package transport

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/paramheader"
	"github.com/mcpwire/mcpwire/internal/readmode"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// postCall is one POST that Write sends and, for a request, the reply
// stream it started. The transport keeps it to tie the reply's life to
// the request: the reply is closed when notifications/cancelled for the
// request is written, and a reply that cannot deliver the response fails
// the call in-band.
//
// The POST runs on the writer's goroutine, with ctx as its context rather
// than the Write's: ctx outlives the Write when the reply is an event
// stream. While the POST waits for its reply, the engine's expiry (or a
// timer) and a watch of the caller's ctx that the stream's POSTs share
// (see watch and watchParentLocked) stop ctx if the Write's ctx ends
// first.
//
// A postCall whose ctx was never cancelled is reused by later Writes, of
// any stream (see takeCall), ctx included: the context, its done channel
// and the set of children net/http adds each request's context to are
// made once per postCall rather than once per POST, and so is the
// *http.Request, which RoundTrippers let the caller reuse once the reply
// body was closed. Free ones wait in a pool shared by all streams, which
// the garbage collector empties, so that an idle stream holds none. The
// body reader is not reused: net/http may still be reading it after the
// reply was read (a server may answer before reading the whole request),
// and nothing says when it stops.
//
// Because a free postCall belongs to no stream, its ctx does not descend
// from the stream's: the stream keeps the calls it is running in a list
// (see track) and stops each of them when it ends.
type postCall struct {
	// givenUp, when the Write's ctx is the engine's (a FrameDecoder),
	// decodes a large JSON reply, whose buffer the call keeps: the
	// result of a call that checks it itself is then left unchecked.
	givenUp readmode.FrameDecoder[jsonrpc.Message]
	// ctx bounds the POST, its reply body and its resumption; stop ends
	// it when the Write's ctx ends before the POST is over, when the
	// request is cancelled, and with the stream.
	ctx  context.Context
	stop context.CancelFunc
	// expire stops the POST and marks the call cancelled: it runs when the
	// Write's ctx ends before the POST is over (see watch). It is
	// c.expireNow as a func value made once, and timer, the timer that
	// runs it at the Write's deadline, is made once too (on first need),
	// so that watching a Write costs no goroutine and no allocation but
	// what a watch of the caller's cancellable ctx asks when no other
	// POST in flight watches it already (see watchParentLocked).
	expire func()
	timer  *time.Timer
	timed  bool // timer runs for this Write
	// expiry is the Write's ctx watching the call's expiry for it (see
	// expiryWatch), instead of timer; nil when not.
	expiry expiryWatch
	// parent is the watch of the caller's cancellable ctx that c's POST
	// shares with the stream's other POSTs watching that ctx, while the
	// POST is in flight; nil when none. parentFired says the ctx's end
	// stopped c. Both are guarded by the stream's mu (see
	// watchParentLocked).
	parent      *parentWatch
	parentFired bool
	// unparent unregisters expire from the caller's ctx when c's POST
	// registered by itself rather than sharing a watch; nil otherwise.
	unparent func() bool
	// getBody is the requests' GetBody, made once; it reads body.
	getBody func() (io.ReadCloser, error)
	// req is the POST, rebuilt in place for each use.
	req *http.Request
	// readReply is readReplyOnce as a func value made once, so that
	// starting a reply's reader costs no closure; readStream and
	// readResp are its arguments, set by spawnReader.
	readReply  func()
	readStream *httpStream
	readResp   *http.Response

	// Set by Write before each use; read-only while the POST is in
	// flight.
	id      jsonrpc.ID
	method  string // the JSON-RPC method, or what a one-way message is
	body    []byte
	initial bool                 // the engine's initialize: no session headers
	params  []byte               // initialize's, kept to repeat it; any request's in the stateless era (Mcp-Name)
	mirror  []paramheader.Header // the stateless era's Mcp-Param-* headers of the request
	oneWay  bool                 // a notification or response: no reply to read

	// header is the POST's header, rebuilt in place for a use (see
	// postHead.fill and addStatelessHeader) unless the last use's is the
	// same (headerFrom, the endpoint it was filled for, nil when it must
	// be rebuilt; see runPost); sessionVals and headerVals hold the values
	// of its session and stateless headers.
	header      http.Header
	headerFrom  *httpEndpoint
	sessionVals [2]string
	headerVals  [2]string

	cancelled atomic.Bool

	// prev and next link the stream's calls in flight (httpStream.running),
	// under the stream's mu.
	prev, next *postCall
}

// postOutcome is what became of a POST (see runPost).
type postOutcome struct {
	// resp is a reply handed back for Write to deal with: a status other
	// than 2xx.
	resp *http.Response
	info sent
	err  error
	// read means the reply, JSON, was read and its messages delivered:
	// nothing is left to do but finish the call.
	read bool
	// stream is a 2xx event stream reply to a request, for a goroutine of
	// the stream to read (runPost leaves that to exchange).
	stream *http.Response
	// kept means a goroutine of the stream reads the reply, an event
	// stream, and finishes the call; Write must not touch it any more.
	kept bool
}

// callPool holds the free postCalls of every stream.
// It has no New: newPostCall refers (through readReply) to the code that
// puts calls back, which would make the pool's initialization a cycle.
var callPool sync.Pool

func newPostCall() *postCall {
	c := new(postCall)
	c.ctx, c.stop = context.WithCancel(context.Background())
	c.req = new(http.Request).WithContext(c.ctx)
	c.getBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(c.body)), nil }
	c.readReply = c.readReplyOnce
	c.expire = c.expireNow
	return c
}

// takeCall returns a postCall for one Write: a free one, or a new one. The
// caller fills it in and then hands it to track.
func takeCall() *postCall {
	if c, ok := callPool.Get().(*postCall); ok {
		return c
	}
	return newPostCall()
}

// track adds c, filled in, to the stream's calls in flight, where the
// stream's end stops it and notifications/cancelled finds it. false means
// the stream is over: c went back to the pool and must not be used.
func (s *httpStream) track(c *postCall) bool {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		release(c)
		return false
	}
	c.prev, c.next = nil, s.running
	if s.running != nil {
		s.running.prev = c
	}
	s.running = c
	s.mu.Unlock()
	return true
}

// finishCall takes c off the calls in flight and releases it. Only c's
// last owner calls it.
func (s *httpStream) finishCall(c *postCall) {
	s.mu.Lock()
	if c.prev != nil {
		c.prev.next = c.next
	} else if s.running == c {
		s.running = c.next
	}
	if c.next != nil {
		c.next.prev = c.prev
	}
	c.prev, c.next = nil, nil
	if s.running == nil {
		// Nothing in flight: an idle stream keeps no hold on a ctx, and
		// sequential calls register as they did before watches were
		// shared (see watchParentLocked).
		s.lastParent = nil
	}
	s.mu.Unlock()
	release(c)
}

// stopCallsLocked stops every call in flight: the stream ended. The caller
// holds s.mu.
func (s *httpStream) stopCallsLocked() {
	for c := s.running; c != nil; c = c.next {
		c.stop()
	}
}

// release puts c back in the pool for a later Write unless its ctx was
// cancelled (the stream ended, or the call was aborted), in which case it
// is dropped.
func release(c *postCall) {
	if c.ctx.Err() != nil {
		return
	}
	c.id, c.method, c.body, c.params, c.mirror, c.givenUp = jsonrpc.ID{}, "", nil, nil, nil, nil
	c.initial, c.oneWay = false, false
	// The header and its values are kept for the next use, which will
	// likely send the same (see runPost); the stateless ones are not.
	c.headerVals = [2]string{}
	c.req.Body, c.req.Header, c.req.URL = nil, nil, nil // let the body, an old header and URL go
	c.cancelled.Store(false)
	callPool.Put(c)
}

// request returns c's POST with the shared, read-only header h.
func (c *postCall) request(s *httpStream, h http.Header) *http.Request {
	r := c.req
	r.Method = http.MethodPost
	r.URL = s.ep.url
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.Header = h
	r.Host = s.ep.url.Host
	r.ContentLength = int64(len(c.body))
	// A *bytes.Reader in io.NopCloser is what net/http recognises as a
	// body in memory: it writes it with the headers in one go.
	r.Body = io.NopCloser(bytes.NewReader(c.body))
	r.GetBody = c.getBody
	return r
}

// cancelCall marks the request id as cancelled by the caller and closes
// its reply. Nothing is delivered for it afterwards: the engine already
// gave up. It runs under the stream's lock, so it cannot meet a call that
// was finished and reused meanwhile.
func (s *httpStream) cancelCall(id jsonrpc.ID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := s.running; c != nil; c = c.next {
		if !c.oneWay && c.id == id {
			c.cancelled.Store(true)
			c.stop()
			return
		}
	}
}

// failCall delivers a synthesized error response so that exactly this call
// fails with a transport reason, unless the caller cancelled it. It
// reports whether it delivered one.
func (s *httpStream) failCall(c *postCall, code int64, message string) bool {
	if c.cancelled.Load() {
		return false
	}
	r := &jsonrpc.Response{ID: c.id, Error: &jsonrpc.Error{Code: code, Message: message}}
	return s.deliver(context.Background(), inboundItem{msg: r}) // ends with the stream
}
