package transport

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// listenerReadyWait bounds how long the write of notifications/initialized
// (or a session renewal) waits for the listener's first reply headers.
const listenerReadyWait = 2 * time.Second

// startListener opens the GET stream once notifications/initialized went
// through, unless DisableListener or while held (see HoldListener). With
// restart (after a session renewal) a running listener is replaced and one
// that had turned off is tried again, since the new session may behave
// differently.
//
// The returned channel is closed once the first GET has its reply headers
// (whatever they say) or failed; it is nil when no listener was started.
func (s *httpStream) startListener(restart bool) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.ep.cfg.DisableListener || !s.listenerWanted || s.listenerHeld {
		return nil
	}
	if s.listenerCancel != nil {
		if !restart {
			return nil
		}
		s.listenerCancel()
	}
	// Not a child of the stream's lifetime context, whose set of children
	// would outlive a listener that turned off; fail cancels it instead.
	ctx, cancel := context.WithCancel(context.Background())
	s.listenerCancel = cancel
	s.listenerGen++
	gen := s.listenerGen
	ready := make(chan struct{})
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.runListener(ctx, ready)
		cancel()
		// A listener that turned off lets its context go, and with it
		// what its GETs hung on it. listenerCancel stays non-nil, so that
		// only a renewal starts it again.
		s.mu.Lock()
		if s.listenerGen == gen {
			s.listenerCancel = listenerOff
		}
		s.mu.Unlock()
	}()
	return ready
}

// HoldListener keeps the GET stream from opening until ReleaseListener
// (see seam.ListenerHolder). A held listener is not opened by a session
// renewal either.
func (s *httpStream) HoldListener() {
	s.mu.Lock()
	s.listenerHeld = true
	s.mu.Unlock()
}

// ReleaseListener lifts HoldListener: once the session is initialized
// the GET stream opens, and ReleaseListener waits for its reply headers
// as notifications/initialized would have (see awaitListener).
func (s *httpStream) ReleaseListener(ctx context.Context) {
	s.mu.Lock()
	held := s.listenerHeld
	s.listenerHeld = false
	s.mu.Unlock()
	if held {
		s.awaitListener(ctx, s.startListener(false))
	}
}

// setListenerRenewed sets listenerRenewed to v and returns what it was.
func (s *httpStream) setListenerRenewed(v bool) (was bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	was, s.listenerRenewed = s.listenerRenewed, v
	return was
}

// listenerOff stands in for the cancel func of a listener that turned off.
func listenerOff() {}

// awaitListener waits, within ctx and listenerReadyWait (or the config's
// listenerWait), until a listener
// just started is established. Servers send what they have to say on
// their own (an elicitation during a tool call, a resumed response) on
// the GET stream if there is one when they have it, and may drop it
// otherwise, so requests that follow notifications/initialized must not
// overtake the GET. A server slow to answer the GET only delays
// initialized by the bound; the listener goes on connecting regardless.
func (s *httpStream) awaitListener(ctx context.Context, ready <-chan struct{}) {
	if ready == nil {
		return
	}
	wait := listenerReadyWait
	if s.ep.cfg.listenerWait > 0 {
		wait = s.ep.cfg.listenerWait
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ready:
	case <-ctx.Done():
	case <-t.C:
	}
}

// runListener keeps the GET stream open and queues what arrives on it.
// When the stream ends or breaks it reconnects (with Last-Event-ID once
// the server gave event ids) after the server's retry time or the backoff
// delay; attempts are bounded and reset when an event arrives. 405 (the
// server offers no stream), any other 4xx, or a reply that is not SSE turn
// the listener off; ErrorHook hears about it, nothing else fails. A GET
// that carried the session and meets an expired one (404, or the 400 quirk
// described at StreamableHTTP) renews the session, which restarts the
// listener; if the restarted listener's GET meets the same answer before
// any GET got a stream, the server has no GET route (a router that
// answers 404 to every GET) and the listener turns off instead.
func (s *httpStream) runListener(ctx context.Context, ready chan struct{}) {
	const what = "listener"
	signalled := false
	markReady := func() {
		if !signalled {
			signalled = true
			close(ready)
		}
	}
	defer markReady()
	st := &sseState{}
	deliverAll := func(m jsonrpc.Message) bool {
		s.deliver(ctx, inboundItem{msg: m})
		return false
	}
	off := func(format string, args ...any) {
		s.hook(fmt.Errorf("transport: GET listener on %s is off: "+format, append([]any{s.redacted()}, args...)...))
	}
	attempts := 0
	for {
		resp, info, err := s.get(ctx, st.lastID, what)
		markReady()
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
			s.setListenerRenewed(false)
			events, _, rerr := s.consumeSSE(ctx, resp.Body, st, deliverAll, nil, resp.Request)
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
		case s.sessionExpired(resp, info):
			resp.Body.Close()
			if s.setListenerRenewed(true) {
				off("the server answered %s in the session that the previous such answer renewed; taking it as no GET stream at this URL", resp.Status)
				return
			}
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
		if s.ep.policy.MaxAttempts < 0 {
			off("the stream ended (%s) and reconnecting is disabled", cause)
			return
		}
		attempts++
		if attempts > s.ep.policy.MaxAttempts {
			off("reconnecting gave up after %d attempts (last: %s)", s.ep.policy.MaxAttempts, cause)
			return
		}
		delay := s.reconnectDelay(st, attempts)
		s.hook(fmt.Errorf("transport: GET listener on %s: the stream ended (%s); reconnecting in %v (attempt %d of %d)", s.redacted(), cause, delay, attempts, s.ep.policy.MaxAttempts))
		if s.ep.cfg.sleep(ctx, delay) != nil {
			return
		}
	}
}
