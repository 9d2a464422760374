package transport

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// DefaultMaxBodySize bounds a JSON reply body (after gzip decoding) and
// one SSE event when a transport's limit is zero: 32 MiB. It leaves room
// for a tools/call result that carries images or a file, while a hostile
// server (an endless body, a gzip bomb, an endless SSE line) costs at most
// this much memory per reply. Raise it per server for larger results; see
// docs/security.md.
const DefaultMaxBodySize int64 = 32 << 20

// maxEventSize resolves a MaxEventSize option, the same way on every HTTP
// transport: zero means DefaultMaxBodySize, negative means unlimited (0,
// the SSE reader's "no limit").
func maxEventSize(n int) int {
	switch {
	case n == 0:
		return int(DefaultMaxBodySize)
	case n < 0:
		return 0
	}
	return n
}

// codeTransportError is the JSON-RPC error code of the error responses the
// Streamable HTTP transport synthesizes to fail one call in-band: an SSE
// reply that ended before the response and could not be resumed, a reply
// body that is too large or unreadable. -32000 is the code MCP SDKs use for
// transport and session problems. A reply that is not JSON at all is
// reported with jsonrpc.CodeParseError instead.
const codeTransportError int64 = -32000

// ErrSessionExpired is wrapped by errors that stem from the server
// forgetting the session (HTTP 404 to a request that carried
// Mcp-Session-Id): a Write whose request was not replayed after the
// transparent re-initialization, and the terminal error when the
// re-initialization itself failed.
var ErrSessionExpired = errors.New("transport: MCP session expired")

// StreamableHTTP is the Streamable HTTP transport of MCP 2025-03-26 and
// later: every client message is a POST to one endpoint URL, a request's
// reply is either one JSON message or an SSE stream, and an optional GET
// stream carries what the server sends on its own.
//
// The zero value of every field but URL is usable. A StreamableHTTP is a
// configuration: Connect may be called many times and does not modify it.
//
// Design choices worth knowing (see also the stream's doc):
//   - Write returns once a POST's reply headers were examined; the body is
//     read in the background and every message in it joins the one inbound
//     queue that Read drains. The transport never correlates ids, except
//     that it watches, per POST, whether the response to the request it
//     posted has arrived, to know whether a broken stream must be resumed.
//   - A call that cannot be completed for a transport reason after its
//     POST was accepted (a stream that ended early without an event id to
//     resume from, resumption that gave up, a body that is not JSON or too
//     large) is failed in-band: an error response with the request's id
//     (code -32000, or jsonrpc.CodeParseError for invalid JSON) is
//     queued for Read, so only that call fails.
//   - A POST's reply stream lives until its response arrived (it is closed
//     right after), the stream is closed, or a notifications/cancelled for
//     that request is written; the caller's context bounds only the sending
//     of the POST and the wait for its reply headers, because Write returns
//     before the body is read. So the engine's cancellation, which writes
//     notifications/cancelled, is what closes a call's stream.
//
// Sessions: the Mcp-Session-Id of the initialize reply (the transport
// recognises initialize by its method) is sent on every later request, and
// MCP-Protocol-Version once SetProtocolVersion named 2025-06-18 or later;
// initialize itself carries neither. A 404 to a request that carried the
// session means the server forgot it: the transport repeats the engine's
// initialize under a string id of its own ("mcpwire-reinit-N", which cannot
// collide with the engine's integers), keeps that reply to itself, posts
// notifications/initialized, restarts the listener and, once, replays the
// request if it is safe to (ping, the list methods, resources/read and
// (un)subscribe, prompts/get, completion/complete, logging/setLevel; and
// tools/call only with ReplayToolCalls). The TypeScript SDK's example
// servers (server-everything among them) answer an unknown session with
// 400 and a -32000 "No valid session ID provided" error instead; that
// exact combination, on a request that carried a session, is treated like
// 404. Notifications and responses are never replayed. A renewal that
// fails ends the stream.
//
// Listening: after notifications/initialized went through, a GET stream
// delivers what the server sends on its own. 405, another 4xx or a reply
// that is not SSE turn it off (reported to ErrorHook); network errors and
// 5xx are retried like a broken stream. A GET that meets an expired
// session renews it, once: the same answer in the new session, before any
// GET got a stream, turns the listener off (a server that answers every
// GET with 404).
//
// Resumption: a broken GET stream, or a POST's stream that broke before
// its response, is resumed with GET and Last-Event-ID after the server's
// retry time or the Reconnect backoff. A stream that ended before its
// response without any event id cannot be resumed and fails its call.
type StreamableHTTP struct {
	// URL is the MCP endpoint, http or https.
	URL string
	// Headers are sent on every request (POST, GET, DELETE), typically
	// Authorization. Their values never appear in errors or logs. The
	// transport's own headers (Accept, Content-Type, Mcp-Session-Id,
	// MCP-Protocol-Version, Last-Event-ID) take precedence over them.
	Headers http.Header
	// Auth, if set, authorizes every request to the URL's origin and
	// answers the server's 401 and 403 challenges (see Authorizer and the
	// auth package); the request is then sent again, so a caller sees
	// only the outcome.
	Auth Authorizer
	// HTTPClient sends the requests. Nil means a connection pool that the
	// package's HTTP transports share (as net/http's DefaultTransport is
	// shared), keeping up to 64 idle connections per server and closing
	// them once no stream uses it; requests then go straight to its
	// RoundTrip, with http.Client's redirect policy done by the transport.
	// Either way a redirect to another origin carries no Authorization,
	// Cookie, Mcp-Session-Id or configured header (a given client keeps
	// its own CheckRedirect, called after that check). A client Timeout
	// would cut long SSE streams, so leave it zero.
	HTTPClient *http.Client
	// MaxBodySize bounds a JSON reply body in bytes, counted after gzip
	// decoding. Zero means DefaultMaxBodySize; negative means unlimited.
	MaxBodySize int64
	// MaxEventSize bounds one SSE event (and any one line of the stream)
	// in bytes. Zero means the body limit (MaxBodySize or its default);
	// negative means unlimited. A larger event breaks its stream like a
	// network error would. Memory grows linearly with the event's size.
	MaxEventSize int
	// DisableListener stops the transport from opening the GET stream
	// after notifications/initialized.
	DisableListener bool
	// ReplayToolCalls allows replaying a tools/call whose POST met an
	// expired session after the transparent re-initialization. It is off
	// because a tool call may have side effects the server already did.
	ReplayToolCalls bool
	// Reconnect says how broken SSE streams are resumed.
	Reconnect ReconnectPolicy
	// ErrorHook receives problems that end no call: the GET listener
	// turning off, each resumption attempt, a session renewal, a failed
	// DELETE on Close. It is called from the transport's goroutines and
	// must not block for long. Nil discards them.
	ErrorHook func(error)
	// OnSessionRenewed, if set, is called after the session was renewed
	// transparently (new initialize and notifications/initialized done),
	// so that a higher layer can redo what the old session held, such as
	// resource subscriptions. It runs on a transport goroutine, may call
	// Write, and must return promptly: Close waits for it.
	OnSessionRenewed func()

	// sleep and jitter are replaced by tests to observe reconnection
	// delays without waiting for them.
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func() float64
	// listenerWait replaces listenerReadyWait when positive: a test that
	// asserts the order of the GET and what follows waits for the event,
	// not for a bound that a loaded machine may exceed.
	listenerWait time.Duration
}

// ReconnectPolicy says how a broken SSE stream (the GET listener, or a
// POST's reply stream before its response) is resumed. The delay before
// attempt n is InitialDelay * Multiplier^(n-1), capped at MaxDelay, then
// spread by ±20% of jitter so that clients cut off together do not return
// together. A server's "retry:" value, when given, replaces the computed
// delay exactly (the spec says to wait that long). The zero value means the
// defaults.
type ReconnectPolicy struct {
	// InitialDelay is the first backoff delay; zero means 1 s.
	InitialDelay time.Duration
	// MaxDelay caps the backoff delay; zero means 30 s.
	MaxDelay time.Duration
	// Multiplier grows the delay per attempt; values below 1 mean 1.5.
	Multiplier float64
	// MaxAttempts bounds consecutive attempts that bring no event; the
	// count resets whenever an event arrives. Zero means 5; negative
	// disables resumption.
	MaxAttempts int
}

const (
	defaultInitialDelay = time.Second
	defaultMaxDelay     = 30 * time.Second
	defaultMultiplier   = 1.5
	defaultMaxAttempts  = 5
	// jitterFraction spreads each backoff delay by ±20% so that many
	// clients cut off at once do not come back at once.
	jitterFraction = 0.2
)

func (p ReconnectPolicy) withDefaults() ReconnectPolicy {
	if p.InitialDelay <= 0 {
		p.InitialDelay = defaultInitialDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = defaultMaxDelay
	}
	if p.MaxDelay < p.InitialDelay {
		p.MaxDelay = p.InitialDelay
	}
	if p.Multiplier < 1 {
		p.Multiplier = defaultMultiplier
	}
	if p.MaxAttempts == 0 {
		p.MaxAttempts = defaultMaxAttempts
	}
	return p
}

// backoff returns the delay before attempt n (1-based) of a policy that
// has its defaults applied; r is a uniform random number in [0, 1).
func (p ReconnectPolicy) backoff(n int, r float64) time.Duration {
	d := float64(p.InitialDelay)
	for i := 1; i < n && d < float64(p.MaxDelay); i++ {
		d *= p.Multiplier
	}
	d = min(d, float64(p.MaxDelay))
	d *= 1 + jitterFraction*(2*r-1)
	return time.Duration(d)
}

// Connect validates the configuration and returns a stream. It does no
// network I/O: the first request goes out with the first Write (the
// initialize request), so ctx is only checked.
//
// The stream implements jsonrpc.Stream, SessionIDer and
// seam.ProtocolVersionSetter.
func (t *StreamableHTTP) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	key, plain := plainKey(t)
	if plain {
		if ep := sharedEndpoints.Get(key); ep != nil {
			return newHTTPStream(ep), nil
		}
	}
	u, err := parseEndpoint(t.URL)
	if err != nil {
		return nil, err
	}
	for k, vs := range t.Headers {
		for _, v := range vs {
			if strings.ContainsAny(v, "\r\n\x00") {
				return nil, fmt.Errorf("transport: header %q for %s has a value with a line break or NUL", k, redactURL(t.URL))
			}
		}
	}
	ep := newHTTPEndpoint(t, u)
	if plain {
		ep = sharedEndpoints.Share(key, ep)
	}
	return newHTTPStream(ep), nil
}

func parseEndpoint(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New("transport: streamable HTTP needs a URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("transport: streamable HTTP URL %s is not a valid URL", redactURL(raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("transport: streamable HTTP URL %s: scheme must be http or https", redactURL(raw))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("transport: streamable HTTP URL %s has no host", redactURL(raw))
	}
	return u, nil
}

func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func defaultJitter() float64 { return rand.Float64() }
