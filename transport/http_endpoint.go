package transport

import (
	"net/http"
	"net/url"
	"time"

	"github.com/mcpwire/mcpwire/internal/weakshare"
)

// httpEndpoint is what a Streamable HTTP stream keeps of its
// configuration: a snapshot taken at Connect (later edits to the
// StreamableHTTP do not reach the stream), the parsed URL, the effective
// limits and policy, and the header every POST starts from. It is
// read-only once made, so the streams of equal plain configurations (see
// plainEndpoint) share one: a thousand idle sessions to one server then
// hold one copy instead of a thousand.
type httpEndpoint struct {
	cfg     StreamableHTTP // sleep and jitter set to their defaults when nil
	url     *url.URL
	maxBody int64
	policy  ReconnectPolicy
	// postBase is the header of every POST before the session's: the
	// configured headers, the user agent, gzip, Basic credentials from
	// the URL, Accept and Content-Type. Never written once built.
	postBase http.Header
}

func newHTTPEndpoint(cfg *StreamableHTTP, u *url.URL) *httpEndpoint {
	ep := &httpEndpoint{cfg: *cfg, url: u, maxBody: cfg.MaxBodySize, policy: cfg.Reconnect.withDefaults()}
	ep.cfg.Headers = cfg.Headers.Clone()
	if ep.maxBody == 0 {
		ep.maxBody = DefaultMaxBodySize
	}
	if ep.cfg.sleep == nil {
		ep.cfg.sleep = sleepContext
	}
	if ep.cfg.jitter == nil {
		ep.cfg.jitter = defaultJitter
	}
	h := baseHeader(ep.cfg.Headers, u)
	h["Accept"] = acceptPOSTValue
	h["Content-Type"] = contentJSONValue
	ep.postBase = h
	return ep
}

// plainEndpoint is the whole of a configuration that has no header,
// authorizer, HTTP client or hook: the comparable rest, by which equal
// configurations find the endpoint they share. The others never share,
// as a map or a func cannot be compared.
type plainEndpoint struct {
	url             string
	maxBody         int64
	maxEvent        int
	disableListener bool
	replayToolCalls bool
	reconnect       ReconnectPolicy
	listenerWait    time.Duration
}

// plainKey returns t's plainEndpoint, and false when t is not plain.
func plainKey(t *StreamableHTTP) (plainEndpoint, bool) {
	if len(t.Headers) > 0 || t.Auth != nil || t.HTTPClient != nil || t.ErrorHook != nil ||
		t.OnSessionRenewed != nil || t.sleep != nil || t.jitter != nil {
		return plainEndpoint{}, false
	}
	return plainEndpoint{
		url: t.URL, maxBody: t.MaxBodySize, maxEvent: t.MaxEventSize,
		disableListener: t.DisableListener, replayToolCalls: t.ReplayToolCalls,
		reconnect: t.Reconnect, listenerWait: t.listenerWait,
	}, true
}

// sharedEndpoints holds the endpoints of plain configurations, weakly:
// one goes with the last stream that holds it.
var sharedEndpoints weakshare.Table[plainEndpoint, httpEndpoint]
