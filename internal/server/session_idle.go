package server

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Idle expiry and the session cap of the Streamable HTTP handler.
//
// A host that initializes and walks away without DELETE never says so,
// and each such session held its streams' logs, its worker and its
// handler's map entry until the process ended. A session is idle while
// no request names it (a GET stream open counts as a request) and no
// call of its runs; once idle for HTTPOptions.SessionIdleTimeout it ends
// and its id gets 404, which tells a host to start a new session
// (spec, Session Management). Each session has one timer, armed when it
// starts: when it fires it re-arms for what is left of the timeout
// instead of being reset by every request, so a request costs two atomic
// operations and a clock read, not a timer reset.

// errTooManySessions refuses a session beyond HTTPOptions.MaxSessions.
var errTooManySessions = errors.New("too many sessions")

// hold marks o as serving a request; the caller found o under h.mu, so
// that a timer that checks o under h.mu sees the request.
func (o *httpOut) hold() { o.active.Add(1) }

// release ends what hold began; the request's end is o's last use.
func (o *httpOut) release() {
	if o.h.opts.SessionIdleTimeout > 0 {
		o.lastUsed.Store(time.Now().UnixNano())
	}
	o.active.Add(-1)
}

// registerLocked keeps o under id, held for the request that made it, and
// arms its idle timer the first time. h.mu is held.
func (h *HTTPHandler) registerLocked(id string, o *httpOut) {
	h.sessions[id] = o
	o.key = id
	o.hold()
	if d := h.opts.SessionIdleTimeout; d > 0 && o.idle == nil {
		o.lastUsed.Store(time.Now().UnixNano())
		o.idle = time.AfterFunc(d, o.checkIdle)
	}
}

// fullLocked reports whether a new session would go past
// HTTPOptions.MaxSessions. h.mu is held.
func (h *HTTPHandler) fullLocked() bool {
	return h.opts.MaxSessions > 0 && len(h.sessions) >= h.opts.MaxSessions
}

// refuseFull answers a request that would start a session past the cap:
// 503, with a JSON-RPC error saying why. id is the request's: the body of
// a POST is read and decoded before its session is looked for, so a
// request's id is known there; a GET or DELETE has no body and a batch no
// one id, and those pass the zero ID, which goes out as null.
func (h *HTTPHandler) refuseFull(w http.ResponseWriter, id jsonrpc.ID) {
	e := jsonrpc.NewError(-32000, fmt.Sprintf("Service Unavailable: %v: this server keeps at most %d sessions open; try again once one ends", errTooManySessions, h.opts.MaxSessions))
	httpErrorFor(w, http.StatusServiceUnavailable, id, e)
}

// idleLeft is how long o has yet to be idle before it expires; the whole
// timeout while a request or a call of its runs.
func (o *httpOut) idleLeft(d time.Duration) time.Duration {
	if o.active.Load() > 0 {
		return d
	}
	return time.Until(time.Unix(0, o.lastUsed.Load()).Add(d))
}

// busy reports whether the session runs a call or other work, which a
// client that dropped its POST may still be waiting on through GET. Work
// that waits for the client's own answer (a request of the server's
// pending: an elicitation, a sampling, roots) is not: a client that has
// named the session in no request, and held no stream open, for the whole
// timeout is gone and will not answer, and a session kept for it would
// be kept for good (the gateway's call waiting on a vanished host held
// its session, and the upstream call under it, past every timeout).
// The session's end fails those requests, and the work waiting on them
// ends.
func (ss *Session) busy() bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if len(ss.pending) > 0 {
		return false
	}
	return len(ss.inflight) > 0 || ss.running > 0
}

// checkIdle runs when o's idle timer fires: it ends o if o has been idle
// for the whole timeout, else waits again for what is left. o.idle and
// o.key are read under h.mu, where they were set.
func (o *httpOut) checkIdle() {
	h, d := o.h, o.h.opts.SessionIdleTimeout
	busy := o.ss.busy()
	h.mu.Lock()
	if h.sessions[o.key] != o {
		h.mu.Unlock() // ended already
		return
	}
	// A request that found o holds it by now: it was found under h.mu.
	left := d
	if !busy {
		left = o.idleLeft(d)
	}
	if left > 0 {
		o.idle.Reset(left)
		h.mu.Unlock()
		return
	}
	h.unregisterLocked(o.key, o)
	h.mu.Unlock()
	// Not revoked: a sealed id opens again at its next request, as on a
	// replica that never held it.
	o.ss.shutdown()
}

// unregisterLocked forgets the session kept under id, o or nil, and
// stops o's idle timer: what registerLocked began. h.mu is held.
func (h *HTTPHandler) unregisterLocked(id string, o *httpOut) {
	delete(h.sessions, id)
	if o != nil && o.idle != nil {
		o.idle.Stop()
	}
}
