package transport

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// legacyCloseWait bounds how long Close waits for the GET reader to stop.
// Cancelling the request normally stops it at once; the bound only matters
// for a custom RoundTripper that ignores cancellation.
const legacyCloseWait = 5 * time.Second

// sseStream is a connected legacy HTTP+SSE session.
//
// Concurrency: one goroutine (readLoop) reads the GET stream and hands
// each item to Read over an unbuffered channel, so a slow Read slows the
// server down instead of queueing without bound. Writes are independent
// POSTs and may run concurrently. ctx is the session's life: Close cancels
// it, which ends the GET and every POST in flight.
type sseStream struct {
	cfg      SSE
	url      *url.URL
	redacted string
	sender   *httpSender
	maxEvent int
	endpoint *url.URL // set by open, read-only afterwards
	// postHeader is every POST's header, shared and read-only.
	postHeader http.Header

	ctx    context.Context
	cancel context.CancelCauseFunc

	in      chan inboundLegacy
	ended   chan struct{} // closed by readLoop after setting termErr
	termErr error

	closeOnce sync.Once
}

type inboundLegacy struct {
	msg jsonrpc.Message
	err error
}

// sseBody is the GET reply body with its event reader.
type sseBody struct {
	rc io.ReadCloser
	r  *sse.Reader
	// req is the GET that opened the stream: the credentials it carried
	// are scrubbed from the server's error responses.
	req *http.Request
}

func (b *sseBody) Close() { b.rc.Close() }

func newSSEStream(cfg *SSE, u *url.URL) *sseStream {
	c := *cfg // a snapshot: later edits to cfg do not reach this stream
	c.Headers = cfg.Headers.Clone()
	maxEvent := maxEventSize(c.MaxEventSize)
	ctx, cancel := context.WithCancelCause(context.Background())
	return &sseStream{
		cfg:      c,
		url:      u,
		redacted: redactParsedURL(u),
		sender:   newHTTPSender(c.HTTPClient, c.Headers, c.Auth, u),
		maxEvent: maxEvent,
		ctx:      ctx,
		cancel:   cancel,
		in:       make(chan inboundLegacy),
		ended:    make(chan struct{}),
	}
}

// readLoop delivers the messages seen before the endpoint event, then
// every message event of the GET stream, until the stream or the session
// ends.
func (s *sseStream) readLoop(body *sseBody, early []inboundLegacy) {
	defer close(s.ended)
	defer body.Close()
	for _, it := range early {
		scrubLegacyError(it, body.req)
		if !s.deliver(it) {
			s.termErr = s.closedErr()
			return
		}
	}
	for {
		ev, err := body.r.Next()
		if err != nil {
			s.termErr = s.endErr(err)
			return
		}
		if ev.Type != "" && ev.Type != "message" {
			continue // a repeated endpoint event or an extension: not for Read
		}
		for _, it := range decodeEvent(ev.Data) {
			scrubLegacyError(it, body.req)
			if !s.deliver(it) {
				s.termErr = s.closedErr()
				return
			}
		}
	}
}

func (s *sseStream) deliver(it inboundLegacy) bool {
	select {
	case s.in <- it:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// endErr is the terminal error for a GET stream that stopped with err.
func (s *sseStream) endErr(err error) error {
	if s.ctx.Err() != nil {
		return s.closedErr()
	}
	if err == io.EOF {
		return fmt.Errorf("%w: the server closed GET %s", errLegacySSEEnded, s.redacted)
	}
	return fmt.Errorf("%w (GET %s): %w", errLegacySSEEnded, s.redacted, err)
}

func (s *sseStream) closedErr() error {
	return fmt.Errorf("transport: legacy SSE %s: %w", s.redacted, jsonrpc.ErrClosed)
}

// Read returns the next server message. A *jsonrpc.DecodeError reports one
// bad event payload; the stream goes on. Once the GET stream ended, Read
// returns an error that says why (wrapping jsonrpc.ErrClosed after Close),
// every time.
func (s *sseStream) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case it := <-s.in:
		return it.msg, it.err
	case <-s.ended:
		return nil, s.termErr
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write POSTs msg as JSON to the endpoint and returns once the server
// accepted it (any 2xx; servers answer 202 with the body "Accepted", some
// 200 or 204). The reply body is ignored: answers come on the GET stream.
// A non-2xx reply is an *HTTPError, which quotes a JSON-RPC error body.
// ctx bounds the whole POST; Close aborts it.
func (s *sseStream) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-s.ended:
		return s.termErr
	default:
	}
	if s.ctx.Err() != nil {
		return s.closedErr()
	}
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("transport: encoding a message for %s: %w", s.redacted, err)
	}
	reqCtx, cancel := context.WithCancelCause(s.ctx)
	defer cancel(nil)
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	defer stop()
	resp, err := s.sender.do(newHTTPRequest(reqCtx, http.MethodPost, s.endpoint, s.postHeader, body), body)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("transport: POST %s: %w", redactParsedURL(s.endpoint), context.Cause(ctx))
		case s.ctx.Err() != nil:
			return s.closedErr()
		}
		return httpRequestError(http.MethodPost, redactParsedURL(s.endpoint), "legacy SSE message", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return newHTTPError(resp, http.MethodPost)
	}
	// Read a little of the body so that the connection can be reused.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, discardLimit))
	resp.Body.Close()
	return nil
}

// Close ends the session: it cancels the GET stream and every POST in
// flight and waits (bounded) for the reader to stop. It is idempotent and
// safe to call concurrently with Read and Write.
func (s *sseStream) Close() error {
	s.closeOnce.Do(func() {
		s.cancel(jsonrpc.ErrClosed)
		t := time.NewTimer(legacyCloseWait)
		defer t.Stop()
		select {
		case <-s.ended:
		case <-t.C:
		}
		s.releaseClient()
	})
	return nil
}

func (s *sseStream) releaseClient() { s.sender.close() }

// Endpoint returns the redacted URL messages are posted to, for
// diagnostics.
func (s *sseStream) Endpoint() string { return redactParsedURL(s.endpoint) }

// scrubLegacyError takes the credentials the GET carried out of an error
// response's message and data, and out of what a bad frame's decode error
// quotes of it, before the caller (or the error hook) can see them.
func scrubLegacyError(it inboundLegacy, req *http.Request) {
	if r, ok := it.msg.(*jsonrpc.Response); ok && r.Error != nil {
		scrubRPCError(r.Error, sentSecrets(req))
	}
	if it.err != nil {
		scrubDecodeError(it.err, sentSecrets(req))
	}
}
