package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// sseState is what survives a broken SSE connection: the cursor to resume
// from and the server's requested reconnection delay.
type sseState struct {
	lastID   string
	retry    time.Duration
	hasRetry bool
}

// replyWatch notices the response to the request a POST carried. This is
// the only place the transport looks at ids: it must know whether a broken
// reply stream still owes that response.
type replyWatch struct {
	call     *postCall
	answered bool
	// sent is the request whose reply this is: the credentials it carried
	// are scrubbed from error responses, the one place where a server's
	// text becomes the error a caller sees. Success costs nothing.
	sent *http.Request
	// reissued is the id of a stateless re-issue of the request, answered
	// as call.id; the zero ID when there was none.
	reissued jsonrpc.ID
}

// see inspects one message before delivery. An error response without an
// id on a POST that carried one request can only be about that request
// (servers reject unreadable requests that way), so it gets its id, or the
// call would wait in vain.
func (w *replyWatch) see(m jsonrpc.Message) {
	r, ok := m.(*jsonrpc.Response)
	if !ok {
		return
	}
	if r.Error != nil {
		scrubRPCError(r.Error, sentSecrets(w.sent))
		if !r.ID.IsValid() && !w.answered {
			r.ID = w.call.id
		}
	}
	if r.ID == w.call.id {
		w.answered = true
	}
}

// seeBad inspects a bad frame before delivery. One that can only be the
// response to the watched request (see jsonrpc.DecodeError.ID) is its
// answer: the engine fails the call with it, so the reply must not be
// read on, resumed, or failed once more. w may be nil (nothing watched).
func (w *replyWatch) seeBad(err error) bool {
	var d *jsonrpc.DecodeError
	if w == nil || !errors.As(err, &d) || !d.ID.IsValid() {
		return false
	}
	if w.reissued.IsValid() && d.ID == w.reissued {
		d.ID = w.call.id
	}
	if d.ID != w.call.id {
		return false
	}
	w.answered = true
	return true
}

// readJSONReply reads an application/json reply to a request and queues
// its messages (one, or a 2025-03-26 batch). A body that is not JSON-RPC,
// too large, unreadable, or without the response fails the call in-band.
// The body is read into a pooled buffer: decoded messages keep no part of
// it, unless it is too large to be pooled again. settled reports whether the call got its response or its in-band
// failure; it did not if the call was stopped.
func (s *httpStream) readJSONReply(call *postCall, resp *http.Response) (settled bool) {
	defer resp.Body.Close()
	buf := takeReplyBuf()
	defer giveReplyBuf(buf)
	data, err := readLimitedInto((*buf)[:0], resp.Body, resp.ContentLength, s.ep.maxBody)
	*buf = data
	if err != nil {
		if call.ctx.Err() != nil {
			return false
		}
		return s.failCall(call, codeTransportError, fmt.Sprintf("transport: reading the JSON reply to %s (id %s) from %s: %v", call.method, call.id, s.redacted(), err))
	}
	// Called directly, not through a func value, which would move one
	// to the heap for every reply.
	var one [1]jsonrpc.Message
	var msgs []jsonrpc.Message
	var derr error
	switch {
	case cap(data) > maxPooledReply && call.givenUp != nil:
		// The engine's call, which may take a large result unchecked
		// and check it as it decodes it: one walk of a tools/list page
		// instead of two, as over stdio.
		secrets := sentSecrets(resp.Request)
		msgs, derr = call.givenUp.DecodeGivenUp(nil, data, func(err error) { scrubDecodeError(err, secrets) })
	case cap(data) > maxPooledReply:
		// giveReplyBuf drops a buffer this large: its messages may keep
		// their parts of it rather than copies.
		msgs, derr = jsonrpc.AppendFrameRetaining(one[:0], data)
	default:
		msgs, derr = jsonrpc.AppendFrame(one[:0], data)
	}
	if len(msgs) == 0 {
		return s.failCall(call, jsonrpc.CodeParseError, fmt.Sprintf("transport: the JSON reply to %s (id %s) from %s is not a valid JSON-RPC message: %s", call.method, call.id, s.redacted(), decodeReason(derr)))
	}
	w := replyWatch{call: call, sent: resp.Request}
	for _, m := range msgs {
		w.see(m)
		if !s.deliver(call.ctx, inboundItem{msg: m}) {
			return false
		}
	}
	s.deliverDecodeErrors(call.ctx, derr, &w, resp.Request)
	if !w.answered {
		return s.failCall(call, codeTransportError, fmt.Sprintf("transport: the JSON reply to %s (id %s) from %s carried no response to it", call.method, call.id, s.redacted()))
	}
	return true
}

// maxPooledReply bounds the reply buffers kept for reuse; a larger reply's
// buffer is left to the collector.
const maxPooledReply = 64 << 10

var replyBufs = sync.Pool{New: func() any { return new([]byte) }}

func takeReplyBuf() *[]byte { return replyBufs.Get().(*[]byte) }

func giveReplyBuf(b *[]byte) {
	if cap(*b) > maxPooledReply {
		*b = nil
	}
	*b = (*b)[:0]
	replyBufs.Put(b)
}

// readPOSTStream reads a text/event-stream reply to a request until its
// response arrived, resuming with GET + Last-Event-ID when the stream
// breaks before that (see resumeCall). After the response the stream is
// closed: the server should end it there, and holding it open for a
// server that does not would cost a connection per call.
func (s *httpStream) readPOSTStream(call *postCall, resp *http.Response) {
	st := &sseState{}
	w := replyWatch{call: call, sent: resp.Request}
	onMsg := func(m jsonrpc.Message) bool {
		if r, ok := m.(*jsonrpc.Response); ok && w.reissued.IsValid() && r.ID == w.reissued {
			r.ID = call.id
		}
		w.see(m)
		s.deliver(call.ctx, inboundItem{msg: m})
		return w.answered
	}
	body := resp.Body
	attempts := 0
	for {
		events, _, err := s.consumeSSE(call.ctx, body, st, onMsg, &w, w.sent)
		body.Close()
		if w.answered || call.ctx.Err() != nil {
			return
		}
		if events > 0 {
			attempts = 0
		}
		cause := describeEnd(err)
		if s.stateless.Load() {
			if w.reissued.IsValid() || !s.safeToReissue(call.method) {
				s.statelessStreamBroken(call, cause, w.reissued.IsValid())
				return
			}
			var ok bool
			if body, w.reissued, ok = s.reissue(call, cause, onMsg); !ok {
				return
			}
			continue
		}
		if st.lastID == "" {
			s.failCall(call, codeTransportError, fmt.Sprintf("transport: the SSE stream for %s (id %s) from %s ended before its response (%s) and cannot be resumed: it carried no event id", call.method, call.id, s.redacted(), cause))
			return
		}
		var ok bool
		if body, attempts, ok = s.resumeCall(call, st, attempts, cause); !ok {
			return
		}
	}
}

// resumeCall reconnects a call's broken stream with GET and Last-Event-ID
// after the server's retry time or the backoff delay, up to the attempt
// bound. It returns the new stream's body, or fails the call in-band and
// returns false.
func (s *httpStream) resumeCall(call *postCall, st *sseState, attempts int, cause string) (io.ReadCloser, int, bool) {
	giveUp := func(why string) (io.ReadCloser, int, bool) {
		s.failCall(call, codeTransportError, fmt.Sprintf("transport: the SSE stream for %s (id %s) from %s broke before its response and %s", call.method, call.id, s.redacted(), why))
		return nil, 0, false
	}
	if s.ep.policy.MaxAttempts < 0 {
		return giveUp(fmt.Sprintf("resumption is disabled (%s)", cause))
	}
	for {
		attempts++
		if attempts > s.ep.policy.MaxAttempts {
			return giveUp(fmt.Sprintf("resuming gave up after %d attempts (last: %s)", s.ep.policy.MaxAttempts, cause))
		}
		delay := s.reconnectDelay(st, attempts)
		s.hook(fmt.Errorf("transport: the SSE stream for %s (id %s) from %s broke (%s); resuming with GET in %v (attempt %d of %d)", call.method, call.id, s.redacted(), cause, delay, attempts, s.ep.policy.MaxAttempts))
		if s.ep.cfg.sleep(call.ctx, delay) != nil {
			return nil, 0, false
		}
		resp, info, err := s.get(call.ctx, st.lastID, call.method)
		if call.ctx.Err() != nil {
			if resp != nil {
				resp.Body.Close()
			}
			return nil, 0, false
		}
		if err != nil {
			cause = err.Error()
			continue
		}
		if isSSEReply(resp) {
			return resp.Body, attempts, true
		}
		expired := s.sessionExpired(resp, info)
		readErrorBody(resp)
		herr := newHTTPError(resp, http.MethodGet)
		switch {
		case expired:
			return giveUp(fmt.Sprintf("the session expired while resuming: %v", herr))
		case retryableStatus(resp.StatusCode):
			cause = herr.Error()
			continue
		default:
			return giveUp(fmt.Sprintf("the server refused to resume it: %v", herr))
		}
	}
}

// reconnectDelay is the server's retry time when it sent one, else the
// backoff delay for attempt n.
func (s *httpStream) reconnectDelay(st *sseState, n int) time.Duration {
	if st.hasRetry {
		return st.retry
	}
	return s.ep.policy.backoff(n, s.ep.cfg.jitter())
}

// maxEventSize is the SSE event limit: the configured one, else the body
// limit, so that no stream is unbounded unless the user asked for it; 0 is
// unlimited.
func (s *httpStream) maxEventSize() int {
	limit := int64(s.ep.cfg.MaxEventSize)
	if limit == 0 {
		limit = s.ep.maxBody
	}
	if limit < 0 {
		return 0
	}
	return int(min(limit, int64(maxInt)))
}

// consumeSSE reads events from body until it ends, fails, ctx ends, or
// onMsg asks to stop (returning stopped). Every message of a "message"
// event (or an event without a type) goes to onMsg; bad data is queued as
// a decode error, which leaves the stream usable, unless it was the
// response w watches for (nil: none), which stops too. sent is the
// request the stream answers, whose credentials a decode error must not
// quote. events counts every event, priming events included: any event
// is progress.
func (s *httpStream) consumeSSE(ctx context.Context, body io.Reader, st *sseState, onMsg func(jsonrpc.Message) bool, w *replyWatch, sent *http.Request) (events int, stopped bool, err error) {
	r := takeSSEReader(body)
	defer giveSSEReader(r)
	if limit := s.maxEventSize(); limit > 0 {
		r.SetMaxEventSize(limit)
	}
	for {
		// The event's data is decoded before the next call (the decoded
		// messages keep no part of it), so it is borrowed, not copied.
		ev, err := r.NextView()
		if err != nil {
			return events, false, err
		}
		events++
		if ev.HasID {
			st.lastID = ev.ID
		}
		if ev.HasRetry {
			st.retry, st.hasRetry = ev.Retry, true
		}
		if (ev.Type != "" && ev.Type != "message") || len(bytes.TrimSpace(ev.Data)) == 0 {
			continue
		}
		var one [1]jsonrpc.Message
		msgs, derr := jsonrpc.AppendFrame(one[:0], ev.Data)
		stop := false
		for _, m := range msgs {
			if onMsg(m) {
				stop = true
			}
		}
		if s.deliverDecodeErrors(ctx, derr, w, sent) {
			stop = true
		}
		if err := ctx.Err(); err != nil {
			return events, false, err
		}
		if stop {
			return events, true, nil
		}
	}
}

// sseReaders holds the SSE readers of ended streams, with their buffers:
// a reply stream per call would otherwise cost a reader and a 4 KiB
// buffer each. The collector empties it, so idle streams hold none.
var sseReaders = sync.Pool{New: func() any { return sse.NewReader(nil) }}

func takeSSEReader(body io.Reader) *sse.Reader {
	r := sseReaders.Get().(*sse.Reader)
	r.Reset(body)
	return r
}

func giveSSEReader(r *sse.Reader) {
	r.Reset(nil) // let the body go; buffers over 64 KiB go too
	sseReaders.Put(r)
}

// get opens a GET stream: the listener, or the resumption of a broken
// stream when lastID is set.
func (s *httpStream) get(ctx context.Context, lastID, what string) (*http.Response, sent, error) {
	h, info := s.otherHeaders(acceptGET, lastID)
	resp, err := s.sender.do(newHTTPRequest(ctx, http.MethodGet, s.ep.url, h, nil), nil)
	if err != nil {
		return nil, info, s.requestError(http.MethodGet, what, err)
	}
	return resp, info, nil
}

func isSSEReply(resp *http.Response) bool {
	return resp.StatusCode >= 200 && resp.StatusCode <= 299 &&
		isMediaType(resp.Header.Get("Content-Type"), "text/event-stream")
}

// retryableStatus: statuses after which trying the same GET later may work.
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500
}

// describeEnd says how a stream ended, for messages.
func describeEnd(err error) string {
	if err == nil || errors.Is(err, io.EOF) {
		return "the server ended it"
	}
	return err.Error()
}

// readLimited reads a whole body of at most limit bytes (negative: no
// limit). size is the announced Content-Length (-1 when unknown): the
// buffer is sized from it, or else grows by doubling, since io.ReadAll's
// gentler growth copies a large body several times over.
func readLimited(r io.Reader, size, limit int64) ([]byte, error) {
	data, err := readLimitedInto(nil, r, size, limit)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// readLimitedInto is readLimited appending to data, whose capacity is used
// when it is enough.
func readLimitedInto(data []byte, r io.Reader, size, limit int64) ([]byte, error) {
	if limit < 0 {
		limit = math.MaxInt64 - 1
	}
	capacity := int64(16 << 10)
	if size >= 0 && size < limit {
		capacity = size + 1 // +1: room to see the end without growing
	}
	if int64(cap(data)-len(data)) < capacity {
		data = slices.Grow(data, int(capacity))
	}
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			// Double, but never past the limit (+1 to see a longer
			// body): a body that reaches the limit costs it once.
			data = slices.Grow(data, int(min(int64(cap(data)), limit+1-int64(len(data)))))
		}
		room := data[len(data):cap(data)]
		if int64(len(data))+int64(len(room)) > limit+1 {
			room = room[:limit+1-int64(len(data))]
		}
		n, err := r.Read(room)
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return data, err
		}
	}
	if int64(len(data)) > limit {
		return data, fmt.Errorf("the body exceeds the limit of %d bytes (MaxBodySize)", limit)
	}
	return data, nil
}

// deliverDecodeErrors queues each bad frame of a decode result separately,
// so that every one Read returns is a single *jsonrpc.DecodeError, with
// the credentials sent carried taken out of what it quotes of the frame
// (it reaches the error hook, or a call's error). It reports whether one
// was the response w watches for (see seeBad).
func (s *httpStream) deliverDecodeErrors(ctx context.Context, err error, w *replyWatch, sent *http.Request) (answered bool) {
	if err == nil {
		return false
	}
	errs := []error{err}
	if multi, ok := err.(interface{ Unwrap() []error }); ok {
		errs = multi.Unwrap()
	}
	secrets := sentSecrets(sent)
	for _, e := range errs {
		scrubDecodeError(e, secrets)
		if w.seeBad(e) {
			answered = true
		}
		s.deliver(ctx, inboundItem{err: e})
	}
	return answered
}

// decodeReason is the reason part of a decode error, without the excerpt
// of the frame.
func decodeReason(err error) string {
	var d *jsonrpc.DecodeError
	if errors.As(err, &d) {
		return d.Reason
	}
	if err == nil {
		return "no message"
	}
	return err.Error()
}
