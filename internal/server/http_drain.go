package server

import "net/http"

// A replica stopped for a rolling restart should let the calls it is
// answering finish, while its hosts move to the other replicas. The
// replies to POSTs end by themselves once answered; a host's GET stream
// never does, so it would hold an http.Server's Shutdown up to its
// deadline. EndListenStreams ends those streams at once: a host of an
// older-era session opens its GET stream again, which a load balancer
// sends to another replica (a sealed session id lets that replica answer
// it, and the stream resumes from the host's Last-Event-ID).

// EndListenStreams ends every GET stream now and answers later GETs with
// 503, while POSTs go on being served: for a server that drains (an
// http.Server's Shutdown) before it stops. It cannot be undone; Close
// still ends the sessions.
func (h *HTTPHandler) EndListenStreams() {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.draining: // closed already
	default:
		close(h.draining)
	}
}

// refuseWhileDraining answers a GET that arrives after EndListenStreams.
func (h *HTTPHandler) refuseWhileDraining(w http.ResponseWriter) bool {
	select {
	case <-h.draining:
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusServiceUnavailable, -32000, "Service Unavailable: this server is shutting down; open the stream again")
		return true
	default:
		return false
	}
}
