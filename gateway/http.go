package gateway

import (
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/internal/origin"
	"github.com/mcpwire/mcpwire/internal/server"
)

// HTTPOptions configure Handler.
type HTTPOptions struct {
	// AllowedHosts are host names (no port) accepted in Host and Origin
	// besides loopback ones: the names a load balancer forwards.
	AllowedHosts []string
	// LegacySSE also serves the 2024-11-05 HTTP+SSE transport at /sse
	// (messages to /message).
	LegacySSE bool
	// BearerToken, when not empty, is a static token every request must
	// carry as "Authorization: Bearer TOKEN"; without it a request gets
	// 401 and a WWW-Authenticate challenge. The Host and Origin check runs
	// first. The token is the gateway's own: it is never passed upstream.
	BearerToken string
	// SessionKeys seal every Mcp-Session-Id (32 bytes each; the first
	// seals, every one opens), so that replicas given the same keys serve
	// each other's sessions. Without keys, a session lives in this
	// handler. Refused ids are reported to Options.Warn. The legacy
	// HTTP+SSE transport's sessions stay local either way.
	SessionKeys [][]byte
	// SessionMaxAge, when positive, refuses a sealed id (404: the host
	// starts a new session) once that long has passed since its session
	// started, on every replica. Zero is no bound.
	SessionMaxAge time.Duration
	// SessionIdleTimeout ends an HTTP session after that long with no
	// request (an open GET stream is one) and no call running; its id
	// then gets 404 and the host starts a new session. With SessionKeys
	// only this replica's copy ends: the id opens again at its next
	// request. Zero means DefaultSessionIdleTimeout; a negative value
	// keeps sessions until DELETE.
	SessionIdleTimeout time.Duration
	// MaxSessions bounds the HTTP sessions open at once, in each
	// transport: past it, an initialize (or a legacy /sse GET) gets 503
	// with an error saying so. Zero means DefaultMaxSessions; a negative
	// value is no bound.
	MaxSessions int
	// MaxStatelessRequests bounds the requests served at once that are
	// sessions of their own, one request long: every request of a
	// 2026-07-28 host (an open subscriptions/listen stream among them),
	// which MaxSessions and Options.MaxInFlight do not bound. Past it a
	// request is answered at once with HTTP 503 (Retry-After: 1) whose
	// body is error -32000 ("server busy: N stateless requests already in
	// flight at this endpoint"), and goes to no upstream. Zero means
	// DefaultMaxStatelessRequests; a negative value is no bound.
	MaxStatelessRequests int
	// OAuth, when set, requires a JWT access token from an authorization
	// server instead (see OAuthOptions); it excludes BearerToken.
	OAuth *OAuthOptions
	// Metrics also serves MetricsHandler at /metrics, behind the same
	// Host check and authentication as /mcp.
	Metrics bool
}

// The bounds of HTTPOptions that zero selects.
const (
	// DefaultSessionIdleTimeout ends sessions that hosts left without
	// DELETE. A host that keeps its GET stream open is never idle; one
	// that does not, and is quiet this long, gets 404 at its next request
	// and starts a new session, which the spec asks of it and which costs
	// one initialize.
	DefaultSessionIdleTimeout = 30 * time.Minute
	// DefaultMaxSessions bounds what a flood of sessions can hold within
	// the idle time: a few kilobytes each when idle, so tens of megabytes.
	DefaultMaxSessions = 10000
	// DefaultMaxStatelessRequests is the server core's: four times a
	// session's DefaultMaxInFlight, since 2026-07-28 hosts share it.
	DefaultMaxStatelessRequests = server.DefaultMaxStatelessRequests
)

// sessionBounds returns the idle timeout and session cap to serve with,
// zero for none: a gateway embedded without options is bounded as the
// CLI's is by default.
func (o HTTPOptions) sessionBounds() (time.Duration, int) {
	return server.OrDefault(o.SessionIdleTimeout, DefaultSessionIdleTimeout), server.OrDefault(o.MaxSessions, DefaultMaxSessions)
}

// Handler serves the gateway over Streamable HTTP at /mcp: sessions for
// hosts on the older eras, stateless requests for 2026-07-28 hosts. Every
// request's Host, and its Origin when a browser sent one, must name this
// machine or one of AllowedHosts, or it is refused with 403: that is what
// stops a web page from reaching the gateway through DNS rebinding.
// Close ends the handler's sessions.
func (g *Gateway) Handler(opts *HTTPOptions) http.Handler {
	var o HTTPOptions
	if opts != nil {
		o = *opts
	}
	idle, maxSessions := o.sessionBounds()
	mux := http.NewServeMux()
	streamable := g.srv.StreamableHTTPHandler(&server.HTTPOptions{
		SessionKeys: o.SessionKeys, SessionMaxAge: o.SessionMaxAge, SessionWarn: g.warn, Peer: peerOf,
		SessionIdleTimeout: idle, MaxSessions: maxSessions,
		// The core reads zero and negative values as this does.
		MaxStatelessRequests: o.MaxStatelessRequests,
	})
	mux.Handle("/mcp", streamable)
	closers := []func(){streamable.Close}
	if o.LegacySSE {
		legacy := g.srv.LegacySSEHandler()
		legacy.Peer = peerOf
		legacy.MaxSessions = maxSessions
		legacy.Warn = g.warn
		mux.Handle("/sse", legacy)
		mux.Handle("/message", legacy)
		closers = append(closers, legacy.Close)
	}
	if o.Metrics {
		mux.Handle("/metrics", g.MetricsHandler())
	}
	g.mu.Lock()
	g.httpClosers = append(g.httpClosers, closers...)
	g.httpDrains = append(g.httpDrains, streamable.EndListenStreams)
	if g.draining {
		streamable.EndListenStreams()
	}
	g.mu.Unlock()
	// Outside authentication: what tells a host where to authenticate.
	public := http.NewServeMux()
	var guarded http.Handler = mux
	switch {
	case o.OAuth != nil:
		check := newOAuthCheck(o.OAuth, mux)
		check.keys.warn = g.warn
		public.HandleFunc("GET "+resourceMetadataPath, check.serveResourceMetadata)
		public.HandleFunc("GET "+resourceMetadataPath+"/mcp", check.serveResourceMetadata)
		guarded = check
	case o.BearerToken != "":
		guarded = &bearerCheck{token: []byte(o.BearerToken), next: mux}
	}
	public.Handle("/", guarded)
	// Outside the Host check too: probes name the machine by its address.
	health := http.NewServeMux()
	health.HandleFunc("GET /healthz", g.serveHealth)
	health.HandleFunc("GET /readyz", g.serveReady)
	health.Handle("/", newHostCheck(o.AllowedHosts, public))
	return health
}

type hostCheck struct {
	allowed []string
	next    http.Handler
}

func (h *hostCheck) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.hostAllowed(hostOnly(r.Host)) {
		http.Error(w, "Forbidden: Host is not one this gateway answers for (see --allowed-host)", http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || !h.hostAllowed(u.Hostname()) {
			http.Error(w, "Forbidden: Origin is not allowed (see --allowed-host)", http.StatusForbidden)
			return
		}
		// Checked here, against the allowed hosts too; the core's own
		// check knows loopback origins only.
		r.Header.Del("Origin")
	}
	h.next.ServeHTTP(w, r)
}

// newHostCheck accepts the allowed names as a URL or a Host header writes
// them too: an IPv6 address in brackets or not, in any of its spellings.
func newHostCheck(allowed []string, next http.Handler) *hostCheck {
	norm := make([]string, len(allowed))
	for i, a := range allowed {
		norm[i] = origin.CanonicalHost(a)
	}
	return &hostCheck{allowed: norm, next: next}
}

func (h *hostCheck) hostAllowed(host string) bool {
	if host == "" {
		return false
	}
	if origin.IsLoopbackHost(host) {
		return true
	}
	host = origin.CanonicalHost(host)
	return slices.ContainsFunc(h.allowed, func(a string) bool { return strings.EqualFold(a, host) })
}

// hostOnly strips the port from a Host header value.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.Trim(h, "[]")
	}
	return strings.Trim(hostport, "[]")
}
