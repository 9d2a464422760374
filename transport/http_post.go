package transport

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unique"

	"github.com/mcpwire/mcpwire/internal/paramheader"
	"github.com/mcpwire/mcpwire/internal/readmode"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

const (
	methodInitialize  = "initialize"
	methodInitialized = "notifications/initialized"

	acceptPOST = "application/json, text/event-stream"
	acceptGET  = "text/event-stream"

	// errorBodyLimit bounds how much of a failed reply is read, to find a
	// JSON-RPC error in it or quote it in an *HTTPError.
	errorBodyLimit = 64 << 10
	// discardLimit bounds how much of an accepted notification's reply
	// body is read before the connection is given up instead.
	discardLimit = 64 << 10
)

// sent describes what a request carried, for deciding later whether a 404
// means "session expired".
type sent struct {
	session bool
	gen     uint64
}

// Write posts msg, on the caller's goroutine. For a request with a JSON
// reply it returns once the reply was read and its messages delivered;
// an event stream is read in the background once its headers were
// examined. For a notification or response it returns once the server
// accepted it (202, or 200/204).
//
// notifications/initialized returns only once the GET listener it starts
// has its reply headers (bounded; see awaitListener).
//
// Errors: a POST that fails before a usable reply (network error, a
// non-2xx status without a JSON-RPC error for the request) returns an
// error, an *HTTPError for a status. A JSON-RPC error body in a non-2xx
// reply to a request is queued as that request's response instead and
// Write returns nil, except for 401, 403, 404 and 405 (see
// endpointStatus). A 404 to a message that carried the session id renews
// the session first (see StreamableHTTP); a request that is not safe to
// replay then fails with an error wrapping ErrSessionExpired.
func (s *httpStream) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := s.openErr(); err != nil {
		return err
	}
	body, err := jsonrpc.AppendMessage(make([]byte, 0, encodedSizeHint(msg)), msg)
	if err != nil {
		return fmt.Errorf("transport: encoding a message for %s: %w", s.redacted(), err)
	}
	if err := s.awaitRenewal(ctx); err != nil {
		return err
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return s.writeRequest(ctx, m, body)
	case *jsonrpc.Notification:
		return s.writeNotification(ctx, m, body)
	case *jsonrpc.Response:
		return s.writeOneWay(ctx, "response to "+m.ID.String(), body)
	default:
		return fmt.Errorf("transport: cannot send %T", msg)
	}
}

// encodedSizeHint is about the size of msg's encoding, so that it is
// encoded into one buffer instead of one regrown several times. The body
// is not pooled: net/http may read it after the reply arrived.
func encodedSizeHint(msg jsonrpc.Message) int {
	const envelope = 64 // {"jsonrpc":"2.0","id":…,"method":…,"params":…}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return envelope + len(m.Method) + len(m.Params)
	case *jsonrpc.Notification:
		return envelope + len(m.Method) + len(m.Params)
	case *jsonrpc.Response:
		return envelope + len(m.Result)
	}
	return envelope
}

// sendsVersionHeader reports whether a negotiated version is sent as a
// header: from 2025-06-18 on (version strings are dates, so they compare
// as strings), and only if it is a plain token.
func sendsVersionHeader(v string) bool {
	return v >= "2025-06-18" && isVisibleASCII(v)
}

// isVisibleASCII reports whether s is non-empty and made of 0x21..0x7E,
// the alphabet of session ids.
func isVisibleASCII(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7E {
			return false
		}
	}
	return true
}

// requestError turns a client error into one that names the request but
// shows the URL only redacted (net/http quotes it whole, query included).
func (s *httpStream) requestError(httpMethod, what string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("transport: %s %s (%s): %w", httpMethod, s.redacted(), what, err)
}

// postFailed explains a POST that got no reply: the stream's end when it
// ended meanwhile (which is why the POST failed), else the request error.
func (s *httpStream) postFailed(what string, err error) error {
	if oe := s.openErr(); oe != nil {
		return oe
	}
	return s.requestError(http.MethodPost, what, err)
}

// writeRequest posts a request. A JSON reply is read and its messages
// delivered before it returns; an event stream is read by a goroutine of
// the stream once the headers were examined.
func (s *httpStream) writeRequest(ctx context.Context, m *jsonrpc.Request, body []byte) error {
	c := takeCall()
	c.id, c.method, c.body, c.initial = m.ID, m.Method, body, m.Method == methodInitialize
	c.givenUp, _ = ctx.(readmode.FrameDecoder[jsonrpc.Message])
	if c.initial || s.stateless.Load() {
		c.params = m.Params
	}
	if !c.initial && s.stateless.Load() {
		c.mirror = paramheader.From(ctx)
	}
	if !s.track(c) {
		return s.termErr
	}
	owned := true // false once the stream's goroutine reads the reply
	defer func() {
		if owned {
			s.finishCall(c)
		}
	}()
	renewed, waited := false, false
	for {
		out, err := s.exchange(ctx, c)
		if out.kept {
			owned = false
			return err
		}
		if err != nil || out.read {
			return err
		}
		resp := out.resp
		if !renewed && !c.initial && s.sessionExpired(resp, out.info) {
			resp.Body.Close()
			if err := s.renew(ctx, out.info.gen, m.Method); err != nil {
				return err
			}
			renewed = true
			if !s.replayable(m.Method) {
				return &NotReplayedError{Method: m.Method, URL: s.redacted()}
			}
			continue
		}
		// A safe request told to come back soon (429, 503 with
		// Retry-After) is sent once more; anything else fails the call.
		if d, ok := retryAfter(resp, time.Now()); ok && !waited && s.replayable(m.Method) {
			resp.Body.Close()
			if err := s.waitRetryAfter(ctx, m.Method, d); err != nil {
				return err
			}
			waited = true
			continue
		}
		return s.requestFailed(ctx, c, resp)
	}
}

// exchange runs c's POST (see runPost), stopping it if ctx ends first, in
// which case it returns an error naming ctx's cause, unless the reply was
// read in full meanwhile. An event stream reply is given to a goroutine of
// the stream, which finishes the call (out.kept). Stopping cancels c's
// ctx, which makes c unfit for reuse.
func (s *httpStream) exchange(ctx context.Context, c *postCall) (out postOutcome, err error) {
	if ctx.Err() != nil {
		// Not even started: nothing to abort, and c stays reusable.
		return postOutcome{}, fmt.Errorf("transport: POST %s (%s): %w", s.redacted(), c.method, context.Cause(ctx))
	}
	head, info, ok := s.enter(c, ctx)
	if !ok {
		return postOutcome{}, s.termErr
	}
	c.watch(ctx)
	out = s.runPost(c, head, info)
	s.wg.Done()
	// Nothing of the watch may stop c any more once unwatch returned,
	// before a reader goroutine may finish the call and give c to another
	// Write. expire marked the call cancelled if it stopped the POST.
	s.unwatch(c)
	if stopped := c.cancelled.Load() && ctx.Err() != nil; stopped && !out.read {
		for _, r := range []*http.Response{out.resp, out.stream} {
			if r != nil {
				r.Body.Close()
			}
		}
		return postOutcome{info: out.info}, fmt.Errorf("transport: POST %s (%s): %w", s.redacted(), c.method, context.Cause(ctx))
	}
	if out.stream != nil {
		if !s.spawnReader(c, out.stream) {
			out.stream.Body.Close()
			return postOutcome{info: out.info}, s.termErr
		}
		out.stream, out.kept = nil, true
	}
	return out, out.err
}

// writeParts is what the context jsonrpc writes a call's request with
// tells of itself: the caller's ctx and the call's deadline. Its Done
// would make it a context with a timer of its own, once per call; watch
// uses the postCall's timer instead.
type writeParts interface {
	WriteParts() (parent context.Context, deadline time.Time)
}

// expiryWatch is what the context jsonrpc writes a call's request with
// offers besides its parts: a callback run when the engine expires the
// call, at its deadline as progress and the server's requests move it.
// watch prefers it to the timer, which knows only the first deadline: a
// tool call answered in JSON, whose progress comes on the GET listener,
// would otherwise have its POST cut there.
type expiryWatch interface {
	WatchExpiry(f func())
	UnwatchExpiry() (fired bool)
}

// watch arranges for c's POST to be stopped (c.expire) if ctx ends before
// unwatch: when the engine expires the call if ctx offers that (see
// expiryWatch), else at ctx's deadline by c's timer when ctx tells its
// parts (see writeParts). The end of the caller's cancellable ctx (ctx
// itself, or the parent it tells) is watched from enter (see
// watchParentLocked). A caller that gave up wants nothing more of the
// call, so expire marks it cancelled: no error is delivered for it, and
// exchange learns from unwatch that the POST was stopped.
func (c *postCall) watch(ctx context.Context) {
	wp, ok := ctx.(writeParts)
	if !ok {
		return
	}
	_, deadline := wp.WriteParts()
	if ew, ok := ctx.(expiryWatch); ok {
		c.expiry = ew
		ew.WatchExpiry(c.expire)
	} else if !deadline.IsZero() {
		if c.timer == nil {
			c.timer = time.AfterFunc(time.Until(deadline), c.expire)
		} else {
			c.timer.Reset(time.Until(deadline))
		}
		c.timed = true
	}
}

// callerContext is the ctx whose end stops a POST written with ctx: the
// caller's, which jsonrpc's write context tells as its parent.
func callerContext(ctx context.Context) context.Context {
	if wp, ok := ctx.(writeParts); ok {
		parent, _ := wp.WriteParts()
		return parent
	}
	return ctx
}

// unwatch undoes watch and enter's watch of the caller's ctx. If expire
// ran or runs meanwhile, it stops c itself too, so that c, stopped, is
// never reused: an expire still running cannot stop a later Write's POST.
func (s *httpStream) unwatch(c *postCall) {
	fired := false
	if c.expiry != nil {
		fired = c.expiry.UnwatchExpiry()
		c.expiry = nil
	}
	if c.timed {
		c.timed = false
		fired = !c.timer.Stop()
	}
	if c.unparent != nil {
		if !c.unparent() {
			fired = true
		}
		c.unparent = nil
	}
	if c.parent != nil {
		s.mu.Lock()
		if s.unwatchParentLocked(c) {
			fired = true
		}
		s.mu.Unlock()
	}
	if fired {
		c.expireNow()
	}
}

// expireNow is the body of c.expire.
func (c *postCall) expireNow() {
	c.cancelled.Store(true)
	c.stop()
}

// enter counts c's POST in flight on a writer's goroutine, which Close
// waits for (the stream's end stops it), makes the end of the caller's ctx
// (see callerContext) stop it, sharing a watch of that ctx (see
// watchParentLocked) or else by a registration of its own, and returns
// what its header is made of and what it carries (see postHeadersLocked),
// in one turn of the stream's lock; it refuses once the stream is over.
func (s *httpStream) enter(c *postCall, ctx context.Context) (postHead, sent, bool) {
	parent := callerContext(ctx)
	done := parent.Done()
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return postHead{}, sent{}, false
	}
	s.wg.Add(1)
	shared := done == nil || s.watchParentLocked(c, parent, done)
	head, info := s.postHeadersLocked(c.initial)
	s.mu.Unlock()
	if !shared {
		c.unparent = context.AfterFunc(parent, c.expire)
	}
	return head, info, true
}

// runPost sends c's POST, its header made of head (see enter), on the
// writer's goroutine and deals with what it can of the reply: a 2xx reply
// to a request is read here when it is JSON and handed back when it is an
// event stream (out.stream), for exchange to give it to a goroutine of the
// stream; an accepted one-way message's reply is drained; any other status
// is handed back.
func (s *httpStream) runPost(c *postCall, head postHead, info sent) postOutcome {
	// The header is kept from c's last POST when that one went to the
	// same endpoint and session and had nothing of its own added.
	if c.headerFrom == nil || !head.filled(c.header, &c.sessionVals, c.headerFrom, s.ep) {
		c.header = head.fill(c.header, &c.sessionVals)
		c.headerFrom = s.ep
	}
	if s.stateless.Load() {
		addStatelessHeader(c.header, c.method, c.params, c.mirror, &c.headerVals)
		c.headerFrom = nil // the next POST's stateless headers differ
	}
	resp, err := s.sender.do(c.request(s, c.header), c.body)
	if err != nil {
		return postOutcome{info: info, err: s.postFailed(c.method, err)}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return postOutcome{resp: resp, info: info}
	}
	if c.oneWay {
		// 202 is the rule; some servers answer 200 with a JSON body or
		// 204. A body is of no use here, so only a little of it is read
		// (which keeps the connection reusable) and an SSE body not at all.
		if !isMediaType(resp.Header.Get("Content-Type"), "text/event-stream") {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, discardLimit))
		}
		resp.Body.Close()
		return postOutcome{info: info}
	}
	sse, err := s.acceptReply(c, resp)
	if err != nil {
		resp.Body.Close()
		return postOutcome{info: info, err: err}
	}
	if !sse {
		if s.readJSONReply(c, resp) {
			return postOutcome{info: info, read: true}
		}
		// Stopped: by the Write's ctx (exchange says so) or the stream's
		// end (postFailed says so).
		return postOutcome{info: info, err: s.postFailed(c.method, context.Canceled)}
	}
	return postOutcome{info: info, stream: resp}
}

// spawnReader starts the goroutine that reads c's event stream and then
// finishes the call; it refuses once the stream is over, so that no
// goroutine starts after Close began waiting.
func (s *httpStream) spawnReader(c *postCall, resp *http.Response) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return false
	}
	s.wg.Add(1)
	c.readStream, c.readResp = s, resp
	go c.readReply() // made once per postCall: the go statement allocates no closure
	return true
}

// readReplyOnce is the body of c.readReply: it reads the event stream
// spawnReader handed over, then finishes the call (which releases c).
func (c *postCall) readReplyOnce() {
	s, resp := c.readStream, c.readResp
	c.readStream, c.readResp = nil, nil
	defer s.wg.Done()
	defer s.finishCall(c)
	s.readPOSTStream(c, resp)
}

// acceptReply checks a 2xx reply to a request: a JSON or SSE body, and for
// initialize a valid session id, which it records. It reports which kind
// of body it is.
func (s *httpStream) acceptReply(c *postCall, resp *http.Response) (sse bool, err error) {
	ct := firstValue(resp.Header, "Content-Type")
	switch {
	case isMediaType(ct, "application/json"):
	case isMediaType(ct, "text/event-stream"):
		sse = true
	default:
		return false, s.notEndpointError(c, resp)
	}
	if c.initial {
		if err := s.captureSession(resp, c.params); err != nil {
			return false, err
		}
	}
	return sse, nil
}

// captureSession records the session id of an initialize reply and the
// request itself, to repeat it if the session expires.
func (s *httpStream) captureSession(resp *http.Response, params []byte) error {
	sid := resp.Header.Get(headerSessionID)
	if sid != "" && !isVisibleASCII(sid) {
		return fmt.Errorf("transport: POST %s (initialize): the server sent an invalid %s header (not visible ASCII; value not shown)", s.redacted(), headerSessionID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sid != s.sessionID {
		s.sessionID = sid
		s.gen++
	}
	s.initParams = unique.Make(string(params))
	s.haveInit = true
	return nil
}

// requestFailed handles a non-2xx reply to a request: a JSON-RPC error in
// the body becomes the call's response, anything else an *HTTPError.
func (s *httpStream) requestFailed(ctx context.Context, call *postCall, resp *http.Response) error {
	buf := readErrorBody(resp)
	if !endpointStatus(resp.StatusCode) {
		if r := errorResponseFor(buf, call.id); r != nil {
			scrubRPCError(r.Error, sentSecrets(resp.Request))
			if !s.deliver(ctx, inboundItem{msg: r}) {
				if err := s.openErr(); err != nil {
					return err
				}
				return fmt.Errorf("transport: POST %s (%s): %w", s.redacted(), call.method, context.Cause(ctx))
			}
			return nil
		}
	}
	return newHTTPError(resp, http.MethodPost)
}

// endpointStatus reports statuses that speak about the endpoint or the
// credentials rather than the request: 401 and 403 drive authorization,
// 404 and 405 tell a client probing for Streamable HTTP to fall back to
// legacy SSE, and 429 and 503 say the server is too busy for now, which
// a client probing for the protocol's era must not read as the server's
// answer (a JSON-RPC error would send it to the older era). They stay
// *HTTPError even with a JSON-RPC error in the body (HTTPError.RPCError
// keeps it) so that those layers see the status.
func endpointStatus(code int) bool {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed,
		http.StatusTooManyRequests, http.StatusServiceUnavailable:
		return true
	}
	return false
}

// readErrorBody reads the start of a failed reply and puts it back, so
// that newHTTPError can still quote it.
func readErrorBody(resp *http.Response) []byte {
	buf, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyLimit))
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(buf))
	return buf
}

// errorResponseFor returns the JSON-RPC error response in body if it is
// one for id. Servers often send such errors with a null id because they
// reject the request before reading it; on a POST carrying one request
// that error can only be about it, so it gets the request's id.
func errorResponseFor(body []byte, id jsonrpc.ID) *jsonrpc.Response {
	m, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return nil
	}
	r, ok := m.(*jsonrpc.Response)
	if !ok || r.Error == nil {
		return nil
	}
	if !r.ID.IsValid() {
		r.ID = id
	}
	if r.ID != id {
		return nil
	}
	return r
}

// isMediaType reports whether a Content-Type value names the media type
// want (lower case), ignoring case, parameters and spaces. Unlike
// mediaType it allocates nothing; the two agree on every value, since
// mediaType falls back to the same cut for values mime rejects.
func isMediaType(v, want string) bool {
	mt, _, _ := strings.Cut(v, ";")
	return strings.EqualFold(strings.TrimSpace(mt), want)
}

// mediaType returns the lower-case media type of a Content-Type value.
func mediaType(v string) string {
	mt, _, err := mime.ParseMediaType(v)
	if err != nil {
		mt, _, _ = strings.Cut(v, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	return mt
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
