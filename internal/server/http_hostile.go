package server

import (
	"fmt"
	"html"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// HTTPMisbehaviourKind names one way the Streamable HTTP handler answers a
// POSTed request badly on purpose, as a broken or hostile server, or a
// proxy in front of one, does (see HTTPHandler.MisbehaveNext).
type HTTPMisbehaviourKind string

// The misbehaviours. The request itself never reaches the server: the
// misbehaviour is all the client gets.
const (
	// HTTPSilentStream answers with the headers of an event stream and
	// then sends nothing, until the client goes away.
	HTTPSilentStream HTTPMisbehaviourKind = "silent-stream"
	// HTTPKeepAliveOnly answers with an event stream of keep-alive
	// comments, one every Interval, and never an event.
	HTTPKeepAliveOnly HTTPMisbehaviourKind = "keep-alive-only"
	// HTTPHugeEvent answers with an event stream whose one event is the
	// response: a tools/call result holding one text of Size bytes
	// (default DefaultHugeEventSize), written in small pieces so that the
	// server holds no copy of it.
	HTTPHugeEvent HTTPMisbehaviourKind = "huge-event"
	// HTTPLoginPage answers 200 with an HTML login page, as a single
	// sign-on proxy in front of the endpoint does. Like some debugging
	// proxies, the page quotes the request's Authorization header.
	HTTPLoginPage HTTPMisbehaviourKind = "login-page"
	// HTTPSlowBody answers 200 application/json with the full
	// Content-Length of a response, then writes its body one byte every
	// Interval (a slow-loris server).
	HTTPSlowBody HTTPMisbehaviourKind = "slow-body"
	// HTTPBadWWWAuthenticate answers 401 with a WWW-Authenticate header
	// that does not parse (an unterminated quoted string).
	HTTPBadWWWAuthenticate HTTPMisbehaviourKind = "bad-www-authenticate"
	// HTTPRedirect answers 307 Temporary Redirect to Location.
	HTTPRedirect HTTPMisbehaviourKind = "redirect"
)

// DefaultHugeEventSize is the text size of HTTPHugeEvent: 100 MiB.
const DefaultHugeEventSize = 100 << 20

// defaultMisbehaviourInterval paces HTTPKeepAliveOnly and HTTPSlowBody.
const defaultMisbehaviourInterval = time.Second

// HTTPMisbehaviour is one armed misbehaviour.
type HTTPMisbehaviour struct {
	Kind HTTPMisbehaviourKind
	// Target restricts it to requests of this method, or to tools/call
	// of the tool with this name. Empty matches any request.
	Target string
	// Size is HTTPHugeEvent's text size; 0 means DefaultHugeEventSize.
	Size int
	// Interval paces HTTPKeepAliveOnly and HTTPSlowBody; 0 means 1 s.
	Interval time.Duration
	// Location is where HTTPRedirect sends the client.
	Location string
	// Sticky makes it apply to every matching request; otherwise it
	// applies once.
	Sticky bool
}

// MisbehaveNext makes the next POSTed request that matches m.Target (every
// one, if m.Sticky) get m instead of an answer. Misbehaviours apply in the
// order they were armed.
func (h *HTTPHandler) MisbehaveNext(m HTTPMisbehaviour) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.misbehaviours = append(h.misbehaviours, m)
}

func (h *HTTPHandler) takeMisbehaviour(method, tool string) (HTTPMisbehaviour, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, m := range h.misbehaviours {
		if m.Target == "" || m.Target == method || (tool != "" && m.Target == tool) {
			if !m.Sticky {
				h.misbehaviours = slices.Delete(h.misbehaviours, i, i+1)
			}
			return m, true
		}
	}
	return HTTPMisbehaviour{}, false
}

// misbehave answers req as m says. It returns when the answer is complete,
// the client went away or the handler was closed.
func (h *HTTPHandler) misbehave(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request, m HTTPMisbehaviour) {
	interval := m.Interval
	if interval <= 0 {
		interval = defaultMisbehaviourInterval
	}
	switch m.Kind {
	case HTTPSilentStream:
		startEventStream(w)
		h.waitGone(r, nil)
	case HTTPKeepAliveOnly:
		startEventStream(w)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for h.waitGone(r, tick.C) {
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			_ = http.NewResponseController(w).Flush()
		}
	case HTTPHugeEvent:
		size := m.Size
		if size <= 0 {
			size = DefaultHugeEventSize
		}
		startEventStream(w)
		writeHugeEvent(w, req.ID, size)
	case HTTPLoginPage:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>\n"+
			"<form method=\"post\" action=\"/login\">Sign in to continue</form>\n"+
			"<!-- debug: Authorization: %s -->\n</body></html>\n", html.EscapeString(r.Header.Get("Authorization")))
	case HTTPSlowBody:
		body, _ := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: []byte(`{"slow":true}`)})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(http.StatusOK)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for i := 0; i < len(body) && h.waitGone(r, tick.C); i++ {
			if _, err := w.Write(body[i : i+1]); err != nil {
				return
			}
			_ = http.NewResponseController(w).Flush()
		}
	case HTTPBadWWWAuthenticate:
		w.Header().Set("WWW-Authenticate", `Bearer realm="mcp, resource_metadata="http://[::1`)
		httpError(w, http.StatusUnauthorized, -32001, "Unauthorized")
	case HTTPRedirect:
		http.Redirect(w, r, m.Location, http.StatusTemporaryRedirect)
	default:
		httpError(w, http.StatusInternalServerError, -32603, "mcptest: unknown misbehaviour %q", m.Kind)
	}
}

// waitGone waits for tick (nil: never) and reports true when it came
// first, false when the client went away or the handler was closed.
func (h *HTTPHandler) waitGone(r *http.Request, tick <-chan time.Time) bool {
	select {
	case <-tick:
		return true
	case <-r.Context().Done():
		return false
	case <-h.closing:
		return false
	}
}

// writeHugeEvent writes one SSE event: the response to id, a tools/call
// result whose text is size bytes of 'x', in 64 KiB pieces.
func writeHugeEvent(w http.ResponseWriter, id jsonrpc.ID, size int) {
	idJSON, _ := id.MarshalJSON()
	if _, err := fmt.Fprintf(w, `data: {"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"`, idJSON); err != nil {
		return
	}
	piece := []byte(strings.Repeat("x", 64<<10))
	for left := size; left > 0; left -= len(piece) {
		if _, err := w.Write(piece[:min(left, len(piece))]); err != nil {
			return
		}
	}
	fmt.Fprint(w, "\"}]}}\n\n")
	_ = http.NewResponseController(w).Flush()
}
