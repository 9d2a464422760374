package gateway

// Drain begins a graceful stop of the gateway's HTTP endpoints, for a
// replica taken out of a load balancer's rotation (a rolling restart):
// /readyz answers 503 from now on, every host's GET stream and
// 2026-07-28 subscriptions/listen stream ends (the host opens it again,
// through the balancer, on another replica), and calls in flight go on
// to their answers. The caller then shuts its http.Server down (which
// waits for those answers) and calls Close. Drain cannot be undone; it
// is safe to call more than once and with Close.
func (g *Gateway) Drain() {
	g.mu.Lock()
	if !g.draining {
		g.draining = true
		for _, end := range g.httpDrains {
			end()
		}
	}
	g.mu.Unlock()
	g.srv.EndSubscriptions()
}

// isDraining reports whether Drain was called.
func (g *Gateway) isDraining() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.draining
}
