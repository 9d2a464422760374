package gateway

import (
	"errors"
	"net/http"
	"slices"

	"github.com/mcpwire/mcpwire/manager"
)

// serveHealth answers /healthz: the process is alive and answering HTTP.
func (g *Gateway) serveHealth(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok\n"))
}

// serveReady answers /readyz: 503 once the gateway is draining (Drain) or
// closing, so that a load balancer stops sending it hosts, and 503 while none of the servers
// it serves is connected (or able to start on a call: lazy ones), which
// for a gateway of one server (the stdio-to-HTTP bridge, --server NAME)
// means while that server is down: such a replica serves nothing, and
// another may. With several servers it stays ready while one is up: a
// down server fails its own tools, the others work, and taking the whole
// replica out of rotation for it would fail them too. A gateway exists
// only after its manager's startup gate has passed (New lists the tools
// the gate waited for).
func (g *Gateway) serveReady(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	select {
	case <-g.done:
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("closing\n"))
		return
	default:
	}
	if g.isDraining() {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("draining\n"))
		return
	}
	if !g.upstreamsReady() {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("no upstream server connected\n"))
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}

// upstreamsReady reports whether one of the served servers is connected
// or starts on a call, or none of them could ever start (disabled,
// untrusted, invalid: waiting cannot help, and no config at all is not
// an outage).
func (g *Gateway) upstreamsReady() bool {
	startable := false
	for _, st := range g.m.Servers() {
		if len(g.only) > 0 && !slices.Contains(g.only, st.Name) {
			continue
		}
		switch st.State {
		case manager.StateConnected, manager.StateIdle, manager.StateLazy:
			return true
		case manager.StateDisabled, manager.StateUntrusted:
			continue
		case manager.StateFailed:
			if errors.Is(st.Err, manager.ErrInvalidConfig) {
				continue
			}
		}
		startable = true
	}
	return !startable
}

// OpsHandler serves /metrics, /healthz and /readyz without authentication
// or Host check, for a listener of their own that only the scraper and
// the probes reach (mcpwire serve --metrics-listen).
func (g *Gateway) OpsHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", g.MetricsHandler())
	mux.HandleFunc("GET /healthz", g.serveHealth)
	mux.HandleFunc("GET /readyz", g.serveReady)
	return mux
}
