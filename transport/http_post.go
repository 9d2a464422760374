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

// Write posts msg. For a request it returns once the reply headers were
// examined: the reply body (JSON or SSE) is then read in the background
// and its messages are queued for Read. For a notification or response it
// returns once the server accepted it (202, or 200/204).
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
	body, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("transport: encoding a message for %s: %w", s.redacted, err)
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

// post sends one POST. ctx bounds sending and waiting for the reply
// headers; bodyCtx bounds the reply body afterwards (the body's Close
// releases it).
func (s *httpStream) post(ctx, bodyCtx context.Context, body []byte, rpcMethod string, initialize bool) (*http.Response, sent, error) {
	reqCtx, cancel := context.WithCancel(bodyCtx)
	stop := context.AfterFunc(ctx, cancel)
	req, err := http.NewRequestWithContext(reqCtx, http.MethodPost, s.url.String(), bytes.NewReader(body))
	if err != nil {
		stop()
		cancel()
		return nil, sent{}, fmt.Errorf("transport: POST %s (%s): %w", s.redacted, rpcMethod, err)
	}
	info := s.setCommonHeaders(req.Header, initialize)
	req.Header.Set("Accept", acceptPOST)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if !stop() {
		// The caller's ctx ended while the POST was on its way.
		if resp != nil {
			resp.Body.Close()
		}
		cancel()
		return nil, info, fmt.Errorf("transport: POST %s (%s): %w", s.redacted, rpcMethod, context.Cause(ctx))
	}
	if err != nil {
		cancel()
		if oe := s.openErr(); oe != nil {
			return nil, info, oe
		}
		return nil, info, s.requestError(http.MethodPost, rpcMethod, err)
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: cancel}
	return resp, info, nil
}

// setCommonHeaders puts the configured headers and the session and
// version headers on h; initialize requests carry neither of the latter.
func (s *httpStream) setCommonHeaders(h http.Header, initialize bool) sent {
	for k, vs := range s.cfg.Headers {
		h[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	info := sent{gen: s.gen}
	if initialize {
		return info
	}
	if s.sessionID != "" {
		h.Set(headerSessionID, s.sessionID)
		info.session = true
	}
	if sendsVersionHeader(s.version) {
		h.Set(headerProtocolVersion, s.version)
	}
	return info
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
	return fmt.Errorf("transport: %s %s (%s): %w", httpMethod, s.redacted, what, err)
}

// releasingBody releases a request's context when its body is closed.
type releasingBody struct {
	io.ReadCloser
	release context.CancelFunc
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// writeRequest posts a request and hands its reply body to a goroutine.
func (s *httpStream) writeRequest(ctx context.Context, m *jsonrpc.Request, body []byte) error {
	initialize := m.Method == methodInitialize
	call := s.registerCall(m)
	handedOver := false
	defer func() {
		if !handedOver {
			s.finishCall(call)
		}
	}()
	renewed := false
	for {
		resp, info, err := s.post(ctx, call.ctx, body, m.Method, initialize)
		if err != nil {
			return err
		}
		if !renewed && !initialize && s.sessionExpired(resp, info) {
			resp.Body.Close()
			if err := s.renew(ctx, info.gen, m.Method); err != nil {
				return err
			}
			renewed = true
			if !s.replayable(m.Method) {
				return fmt.Errorf("transport: %s to %s: %w; the session was renewed but the request was not replayed because it may have side effects (set ReplayToolCalls to allow tools/call)", m.Method, s.redacted, ErrSessionExpired)
			}
			continue
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return s.requestFailed(ctx, call, resp)
		}
		if initialize {
			if err := s.captureSession(resp, m); err != nil {
				resp.Body.Close()
				return err
			}
		}
		return s.startReply(call, resp, &handedOver)
	}
}

// captureSession records the session id of an initialize reply and the
// request itself, to repeat it if the session expires.
func (s *httpStream) captureSession(resp *http.Response, m *jsonrpc.Request) error {
	sid := resp.Header.Get(headerSessionID)
	if sid != "" && !isVisibleASCII(sid) {
		return fmt.Errorf("transport: POST %s (initialize): the server sent an invalid %s header (not visible ASCII; value not shown)", s.redacted, headerSessionID)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if sid != s.sessionID {
		s.sessionID = sid
		s.gen++
	}
	s.initParams = append([]byte(nil), m.Params...)
	s.haveInit = true
	return nil
}

// startReply hands a 2xx reply to the goroutine that reads its body.
func (s *httpStream) startReply(call *postCall, resp *http.Response, handedOver *bool) error {
	var run func()
	switch ct := mediaType(resp.Header.Get("Content-Type")); ct {
	case "application/json":
		run = func() { s.readJSONReply(call, resp) }
	case "text/event-stream":
		run = func() { s.readPOSTStream(call, resp) }
	default:
		resp.Body.Close()
		return fmt.Errorf("transport: POST %s (%s): the server answered %s with Content-Type %q; a request needs application/json or text/event-stream", s.redacted, call.method, resp.Status, clip(ct, 80))
	}
	if !s.spawn(func() {
		defer s.finishCall(call)
		run()
	}) {
		resp.Body.Close()
		return s.termErr
	}
	*handedOver = true
	return nil
}

// requestFailed handles a non-2xx reply to a request: a JSON-RPC error in
// the body becomes the call's response, anything else an *HTTPError.
func (s *httpStream) requestFailed(ctx context.Context, call *postCall, resp *http.Response) error {
	buf := readErrorBody(resp)
	if !endpointStatus(resp.StatusCode) {
		if r := errorResponseFor(buf, call.id); r != nil {
			if !s.deliver(ctx, inboundItem{msg: r}) {
				if err := s.openErr(); err != nil {
					return err
				}
				return fmt.Errorf("transport: POST %s (%s): %w", s.redacted, call.method, context.Cause(ctx))
			}
			return nil
		}
	}
	return newHTTPError(resp, http.MethodPost)
}

// endpointStatus reports statuses that speak about the endpoint or the
// credentials rather than the request: 401 and 403 drive authorization,
// 404 and 405 tell a client probing for Streamable HTTP to fall back to
// legacy SSE. They stay *HTTPError even with a JSON-RPC error in the body
// (HTTPError.RPCError keeps it) so that those layers see the status.
func endpointStatus(code int) bool {
	switch code {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusMethodNotAllowed:
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
