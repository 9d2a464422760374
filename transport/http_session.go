package transport

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/mcpwire/mcpwire/internal/renewhook"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// reinitIDPrefix starts the ids of the transport's own initialize
// requests. They are strings, so they cannot collide with the engine's
// integer ids.
const reinitIDPrefix = "mcpwire-reinit-"

// initializedBody is the notification that completes a renewed handshake.
var initializedBody = []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

// renewal is one transparent re-initialization; everyone who met the
// expired session waits for the same one.
type renewal struct {
	done chan struct{}
	err  error // written before done is closed
}

// awaitRenewal holds a new Write back while a renewal is in progress, so
// that nothing but the renewal's own handshake reaches the new session
// before notifications/initialized.
func (s *httpStream) awaitRenewal(ctx context.Context) error {
	r := s.renewal.Load()
	if r == nil || renewhook.IsRestoring(ctx) {
		return nil
	}
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// renew replaces the session that a request sent with generation gen
// found expired. If the session changed since, it returns at once; if a
// renewal is running, it waits for it; otherwise it starts one. A failed
// renewal ends the stream.
//
// The renewal repeats the engine's initialize request (same params, a
// fresh string id of the transport's own, no session header), keeps the
// reply to itself, checks that the server settled on the same protocol
// version, posts notifications/initialized and restarts the listener.
func (s *httpStream) renew(ctx context.Context, gen uint64, what string) error {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return s.termErr
	}
	r := s.renewal.Load()
	if r == nil {
		if s.gen != gen {
			s.mu.Unlock()
			return nil
		}
		if !s.haveInit {
			s.mu.Unlock()
			return fmt.Errorf("transport: %s to %s: %w, and there is no initialize request to repeat", what, s.redacted(), ErrSessionExpired)
		}
		r = &renewal{done: make(chan struct{})}
		s.renewal.Store(r)
		s.wg.Add(1)
		go s.runRenewal(r, what)
	}
	s.mu.Unlock()
	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *httpStream) runRenewal(r *renewal, what string) {
	defer s.wg.Done()
	ctx, cancel := context.WithTimeout(s.lifeCtx(), reinitTimeout)
	defer cancel()
	err := s.reinitialize(ctx)
	if err != nil {
		if oe := s.openErr(); oe != nil {
			err = oe // closed meanwhile: that is the real reason
		} else {
			err = fmt.Errorf("transport: %w (the server rejected the session on %s to %s), and starting a new session failed: %w", ErrSessionExpired, what, s.redacted(), err)
			s.fail(err)
		}
	}
	if err == nil {
		s.mu.Lock()
		restore := s.restore
		s.mu.Unlock()
		if restore != nil {
			restore(renewhook.Restoring(ctx))
		}
	}
	s.mu.Lock()
	s.renewal.Store(nil)
	s.mu.Unlock()
	r.err = err
	close(r.done)
	if err != nil {
		return
	}
	s.hook(fmt.Errorf("transport: %s: the session expired (on %s) and was renewed", s.redacted(), what))
	if s.ep.cfg.OnSessionRenewed != nil {
		s.ep.cfg.OnSessionRenewed()
	}
}

// SetRenewalHook implements renewhook.Hooker: fn sets up on each renewed
// session what the old one held, before other Writes are let through.
func (s *httpStream) SetRenewalHook(fn func(ctx context.Context)) {
	s.mu.Lock()
	s.restore = fn
	s.mu.Unlock()
}

func (s *httpStream) reinitialize(ctx context.Context) error {
	s.mu.Lock()
	s.reinitSeq++
	id := jsonrpc.StringID(fmt.Sprintf("%s%d", reinitIDPrefix, s.reinitSeq))
	params := s.initParams.Value()
	version := s.version
	s.mu.Unlock()

	var raw json.RawMessage
	if params != "" {
		raw = json.RawMessage(params)
	}
	body, err := jsonrpc.EncodeMessage(&jsonrpc.Request{ID: id, Method: methodInitialize, Params: raw})
	if err != nil {
		return err
	}
	resp, err := s.postSync(ctx, body, methodInitialize, true)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		readErrorBody(resp)
		return newHTTPError(resp, http.MethodPost)
	}
	sid := resp.Header.Get(headerSessionID)
	if sid != "" && !isVisibleASCII(sid) {
		return fmt.Errorf("the server sent an invalid %s header (not visible ASCII; value not shown)", headerSessionID)
	}
	result, err := s.ownResponse(ctx, resp, id)
	if err != nil {
		return err
	}
	if result.Error != nil {
		return fmt.Errorf("the server answered the repeated initialize with %v", result.Error)
	}
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if err := json.Unmarshal(result.Result, &init); err != nil {
		return fmt.Errorf("the result of the repeated initialize is not an InitializeResult: %v", err)
	}
	if version != "" && init.ProtocolVersion != version {
		return fmt.Errorf("the new session settled on protocol version %q, but the connection uses %q", clip(init.ProtocolVersion, 40), version)
	}

	s.mu.Lock()
	s.sessionID = sid
	s.gen++
	s.mu.Unlock()

	nresp, err := s.postSync(ctx, initializedBody, methodInitialized, false)
	if err != nil {
		return err
	}
	defer nresp.Body.Close()
	if nresp.StatusCode < 200 || nresp.StatusCode > 299 {
		readErrorBody(nresp)
		return newHTTPError(nresp, http.MethodPost)
	}
	s.awaitListener(ctx, s.startListener(true))
	return nil
}

// postSync sends a POST of the transport's own on the calling goroutine;
// ctx, which must end with the stream, bounds it and its reply.
func (s *httpStream) postSync(ctx context.Context, body []byte, what string, initialize bool) (*http.Response, error) {
	head, _ := s.postHeaders(initialize)
	h := head.fill(nil, new([2]string))
	resp, err := s.sender.do(newHTTPRequest(ctx, http.MethodPost, s.ep.url, h, body), body)
	if err != nil {
		return nil, s.postFailed(what, err)
	}
	return resp, nil
}

// ownResponse reads the reply to the transport's own initialize and
// returns the response to id; other messages in it are queued for Read as
// usual.
func (s *httpStream) ownResponse(ctx context.Context, resp *http.Response, id jsonrpc.ID) (*jsonrpc.Response, error) {
	var got *jsonrpc.Response
	onMsg := func(m jsonrpc.Message) bool {
		if r, ok := m.(*jsonrpc.Response); ok && (r.ID == id || (!r.ID.IsValid() && r.Error != nil)) {
			got = r
			return true
		}
		s.deliver(ctx, inboundItem{msg: m})
		return false
	}
	switch ct := mediaType(resp.Header.Get("Content-Type")); ct {
	case "application/json":
		data, err := readLimited(resp.Body, resp.ContentLength, s.ep.maxBody)
		if err != nil {
			return nil, fmt.Errorf("reading the reply to the repeated initialize: %w", err)
		}
		msgs, derr := jsonrpc.DecodeFrame(data)
		for _, m := range msgs {
			onMsg(m)
		}
		if got == nil && derr != nil {
			return nil, fmt.Errorf("the reply to the repeated initialize is not valid JSON-RPC: %s", decodeReason(derr))
		}
	case "text/event-stream":
		_, _, err := s.consumeSSE(ctx, resp.Body, &sseState{}, onMsg, nil, resp.Request)
		if got == nil {
			return nil, fmt.Errorf("the SSE reply to the repeated initialize ended without its response (%s)", describeEnd(err))
		}
	default:
		return nil, fmt.Errorf("the server answered the repeated initialize with Content-Type %q", clip(ct, 80))
	}
	if got == nil {
		return nil, fmt.Errorf("the reply to the repeated initialize carried no response to it")
	}
	return got, nil
}

// sessionExpired reports whether a reply says the session the request
// carried is gone: 404 (the spec's signal), or the 400 with a -32000 "No
// valid session ID provided" error that the TypeScript SDK's example
// servers (server-everything among them) send for an unknown session. The
// latter is matched narrowly (status, code and message) so that other 400s
// are left alone.
func (s *httpStream) sessionExpired(resp *http.Response, info sent) bool {
	if !info.session {
		return false
	}
	switch resp.StatusCode {
	case http.StatusNotFound:
		return true
	case http.StatusBadRequest:
		return isUnknownSessionError(readErrorBody(resp))
	}
	return false
}

func isUnknownSessionError(body []byte) bool {
	m, err := jsonrpc.DecodeMessage(body)
	if err != nil {
		return false
	}
	r, ok := m.(*jsonrpc.Response)
	return ok && r.Error != nil && r.Error.Code == codeTransportError &&
		strings.Contains(strings.ToLower(r.Error.Message), "no valid session id")
}

// replayable reports whether a request may be sent again in a new session:
// reads and idempotent settings, plus tools/call when the user allowed it.
func (s *httpStream) replayable(method string) bool {
	switch method {
	case "ping", "tools/list", "resources/list", "resources/templates/list",
		"resources/read", "prompts/list", "prompts/get", "completion/complete",
		"logging/setLevel", "resources/subscribe", "resources/unsubscribe":
		return true
	case "tools/call":
		return s.ep.cfg.ReplayToolCalls
	}
	return false
}
