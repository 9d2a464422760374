package transport

import (
	"context"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// postCall is a request whose POST reply is being read. The transport
// keeps it only to tie the reply stream's life to the request: the stream
// is closed when notifications/cancelled for the request is written, and a
// stream that cannot deliver the response fails the call in-band.
type postCall struct {
	id     jsonrpc.ID
	method string
	// ctx bounds the POST's reply body and its resumption; it ends with
	// the stream, on cancellation, or when the reader finished.
	ctx       context.Context
	stop      context.CancelFunc
	cancelled atomic.Bool
}

// cancel marks the call as cancelled by the caller and closes its stream.
// Nothing is delivered for it afterwards: the engine already gave up.
func (c *postCall) cancel() {
	c.cancelled.Store(true)
	c.stop()
}

func (s *httpStream) registerCall(m *jsonrpc.Request) *postCall {
	ctx, stop := context.WithCancel(s.ctx)
	c := &postCall{id: m.ID, method: m.Method, ctx: ctx, stop: stop}
	s.mu.Lock()
	s.calls[m.ID] = c
	s.mu.Unlock()
	return c
}

func (s *httpStream) finishCall(c *postCall) {
	s.mu.Lock()
	if s.calls[c.id] == c {
		delete(s.calls, c.id)
	}
	s.mu.Unlock()
	c.stop()
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
