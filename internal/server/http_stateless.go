package server

import (
	"net/http"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Stateless requests (HTTPOptions.Stateless, and every request of the
// 2026-07-28 revision) are each served by a session of their own, one
// request long: Options.MaxInFlight, which bounds a session's requests,
// never holds more than one of them. Each costs a goroutine, a session
// and whatever its handler does (in the gateway, a call upstream) until
// it is answered, and net/http bounds neither requests nor connections;
// so the handler bounds them itself, with a count of places shared by
// all of them.

// DefaultMaxStatelessRequests is HTTPOptions.MaxStatelessRequests'
// default: four times a session's DefaultMaxInFlight, since the
// endpoint's stateless requests come from every host at once, and each
// open subscriptions/listen stream (one per 2026-07-28 host that follows
// a list) holds a place for as long as it is open. A request held costs
// tens of kilobytes (goroutine stacks, its session, the connection's
// buffers), so the bound keeps what they hold to a few hundred megabytes
// at most, before what their handlers do.
const DefaultMaxStatelessRequests = 4096

// statelessPlaces bounds the one-request sessions a handler serves at
// once.
type statelessPlaces struct {
	bound int
	taken chan struct{} // one value per place taken; nil for no bound
}

func newStatelessPlaces(bound int) statelessPlaces {
	p := statelessPlaces{bound: bound}
	if bound > 0 {
		p.taken = make(chan struct{}, bound)
	}
	return p
}

// take takes a place for a request, reporting false when all are taken:
// the request is then refused, not queued, since a client waiting on a
// queue it cannot see is worse off than one told to send again.
func (p *statelessPlaces) take() bool {
	if p.taken == nil {
		return true
	}
	select {
	case p.taken <- struct{}{}:
		return true
	default:
		return false
	}
}

// leave gives back the place take took, once the request's session has
// ended (its handler returned): a client that went away frees its place
// then, as one that got its answer does.
func (p *statelessPlaces) leave() {
	if p.taken != nil {
		<-p.taken
	}
}

// refuseStateless answers req, which found no place: HTTP 503 with
// Retry-After, the status HTTP has for a server that is overloaded for a
// while (RFC 9110, 15.6.4), and as its body the busy error as a JSON-RPC
// response for req's id, for the client that reads it. Not a 200 carrying
// that error, as the session bound answers inside a session: to a
// 2026-07-28 client's server/discover a JSON-RPC error reads as a server
// of the older era (the spec's dual-era rule), and a client would fall
// back to initialize and remember the wrong era; a 503 fails the request,
// and the client may send it again.
func (h *HTTPHandler) refuseStateless(w http.ResponseWriter, req *jsonrpc.Request) {
	w.Header().Set("Retry-After", "1")
	httpErrorFor(w, http.StatusServiceUnavailable, req.ID, jsonrpc.NewError(CodeServerBusy, statelessBusyMessage(h.stateless.bound)))
}

// statelessBusyMessage is the busy error's text under bound.
func statelessBusyMessage(bound int) string {
	return "server busy: " + countOf(bound, "stateless request") + " already in flight at this endpoint (its bound); send it again once one is answered"
}
