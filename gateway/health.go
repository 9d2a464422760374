package gateway

import "net/http"

// serveHealth answers /healthz: the process is alive and answering HTTP.
func (g *Gateway) serveHealth(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write([]byte("ok\n"))
}

// serveReady answers /readyz: 200 while the gateway serves, 503 once it
// is closing, so that a load balancer stops sending it hosts. A gateway
// exists only after its manager's startup gate has passed (New lists the
// tools the gate waited for), and an answer at all means the endpoint is
// serving; no upstream is asked, so a down server does not take the
// replica out of rotation: its own tools fail, the others work.
func (g *Gateway) serveReady(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	select {
	case <-g.done:
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("closing\n"))
	default:
		_, _ = w.Write([]byte("ready\n"))
	}
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
