package transport

import (
	"context"
	"fmt"
	"net/http"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// startListener opens the GET stream once notifications/initialized went
// through, unless DisableListener. With restart (after a session renewal)
// a running listener is replaced and one that had turned off is tried
// again, since the new session may behave differently.
func (s *httpStream) startListener(restart bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.cfg.DisableListener || !s.listenerWanted {
		return
	}
	if s.listenerCancel != nil {
		if !restart {
			return
		}
		s.listenerCancel()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.listenerCancel = cancel
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.runListener(ctx)
	}()
}

// runListener keeps the GET stream open and queues what arrives on it.
// When the stream ends or breaks it reconnects (with Last-Event-ID once
// the server gave event ids) after the server's retry time or the backoff
// delay; attempts are bounded and reset when an event arrives. 405 (the
// server offers no stream), any other 4xx, or a reply that is not SSE turn
// the listener off; ErrorHook hears about it, nothing else fails. A 404 to
// a GET that carried the session renews the session, which restarts the
// listener.
func (s *httpStream) runListener(ctx context.Context) {
	const what = "listener"
	st := &sseState{}
	deliverAll := func(m jsonrpc.Message) bool {
		s.deliver(ctx, inboundItem{msg: m})
		return false
	}
	off := func(format string, args ...any) {
		s.hook(fmt.Errorf("transport: GET listener on %s is off: "+format, append([]any{s.redacted}, args...)...))
	}
	attempts := 0
	for {
		resp, info, err := s.get(ctx, st.lastID, what)
		if ctx.Err() != nil {
			if resp != nil {
				resp.Body.Close()
			}
			return
		}
		var cause string
		switch {
		case err != nil:
			cause = err.Error()
		case isSSEReply(resp):
			events, _, rerr := s.consumeSSE(ctx, resp.Body, st, deliverAll)
			resp.Body.Close()
			if ctx.Err() != nil {
				return
			}
			if events > 0 {
				attempts = 0
			}
			cause = describeEnd(rerr)
		case resp.StatusCode == http.StatusMethodNotAllowed:
			resp.Body.Close()
			off("the server offers no GET stream (405); server messages arrive only on POST replies")
			return
		case resp.StatusCode == http.StatusNotFound && info.session:
			resp.Body.Close()
			// Renewal restarts the listener; this one is done either way.
			_ = s.renew(ctx, info.gen, "GET "+what)
			return
		case resp.StatusCode >= 200 && resp.StatusCode <= 299:
			resp.Body.Close()
			off("the server answered %s with Content-Type %q instead of an event stream", resp.Status, clip(mediaType(resp.Header.Get("Content-Type")), 80))
			return
		case retryableStatus(resp.StatusCode):
			readErrorBody(resp)
			cause = newHTTPError(resp, http.MethodGet).Error()
		default:
			readErrorBody(resp)
			off("%w", newHTTPError(resp, http.MethodGet))
			return
		}
		if s.policy.MaxAttempts < 0 {
			off("the stream ended (%s) and reconnecting is disabled", cause)
			return
		}
		attempts++
		if attempts > s.policy.MaxAttempts {
			off("reconnecting gave up after %d attempts (last: %s)", s.policy.MaxAttempts, cause)
			return
		}
		delay := s.reconnectDelay(st, attempts)
		s.hook(fmt.Errorf("transport: GET listener on %s: the stream ended (%s); reconnecting in %v (attempt %d of %d)", s.redacted, cause, delay, attempts, s.policy.MaxAttempts))
		if s.sleep(ctx, delay) != nil {
			return
		}
	}
}
