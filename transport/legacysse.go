package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpwire/mcpwire/internal/origin"
	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// errLegacySSEEnded is wrapped by the terminal error of a legacy SSE stream
// whose GET stream ended (the server closed it or the connection broke):
// in that transport the session lives exactly as long as that stream.
var errLegacySSEEnded = errors.New("transport: legacy SSE stream ended")

// SSE is the legacy HTTP+SSE transport of MCP 2024-11-05, deprecated since
// 2025-03-26 but still served by many servers. The client holds one GET
// stream open; its first event, "endpoint", names the URL to POST every
// client message to, and every server message arrives on the GET stream.
//
// The zero value of every field but URL is usable. An SSE is a
// configuration: Connect may be called many times and does not modify it.
type SSE struct {
	// URL is the SSE stream URL (conventionally ending in /sse), http or
	// https.
	URL string
	// Headers are sent on the GET and on every POST, typically
	// Authorization. Their values never appear in errors.
	Headers http.Header
	// Auth, if set, authorizes the GET and every POST and answers 401 and
	// 403 challenges (see Authorizer and the auth package).
	Auth Authorizer
	// HTTPClient sends the requests. Nil means the connection pool the
	// package's HTTP transports share (see StreamableHTTP.HTTPClient).
	// Either way a redirect to another origin carries no Authorization,
	// Cookie or configured header (a given client keeps its own
	// CheckRedirect, called after that check). A client Timeout would cut
	// the long-lived GET stream, so leave it zero.
	HTTPClient *http.Client
	// MaxEventSize bounds one SSE event in bytes. Zero means
	// DefaultMaxBodySize; negative means unlimited. A larger event ends the
	// stream, since the event stream cannot be resynchronised.
	MaxEventSize int
}

var _ Transport = (*SSE)(nil)

// Connect opens the GET stream and waits for the endpoint event. ctx bounds
// only that opening; the stream then lives until Close or until the server
// ends it.
//
// The endpoint is resolved against the (final) SSE URL and must be on the
// same origin (scheme, host and port) as URL: a server naming another
// origin is refused, because the configured headers would follow.
// Server messages that arrive before the endpoint event are kept for Read.
//
// The returned stream implements jsonrpc.Stream.
func (t *SSE) Connect(ctx context.Context) (jsonrpc.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	u, err := parseHTTPURL("legacy SSE", t.URL)
	if err != nil {
		return nil, err
	}
	if err := checkHeaderValues(t.Headers, u); err != nil {
		return nil, err
	}
	s := newSSEStream(t, u)
	// Bound the opening by ctx without tying the stream's life to it.
	stop := context.AfterFunc(ctx, func() { s.cancel(context.Cause(ctx)) })
	body, early, err := s.open()
	if !stop() {
		err = fmt.Errorf("transport: legacy SSE %s: no endpoint event before the connect deadline: %w", s.redacted, context.Cause(ctx))
	}
	if err != nil {
		if body != nil {
			body.Close()
		}
		s.cancel(jsonrpc.ErrClosed)
		s.releaseClient()
		return nil, err
	}
	go s.readLoop(body, early)
	return s, nil
}

// open sends the GET and reads up to the endpoint event. It returns the
// open body positioned after that event and the messages seen before it.
func (s *sseStream) open() (*sseBody, []inboundLegacy, error) {
	h := baseHeader(s.cfg.Headers, s.url)
	h.Set("Accept", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	resp, err := s.sender.do(newHTTPRequest(s.ctx, http.MethodGet, s.url, h, nil), nil)
	if err != nil {
		return nil, nil, httpRequestError(http.MethodGet, s.redacted, "legacy SSE", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, nil, newHTTPError(resp, http.MethodGet)
	}
	if mt := mediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		resp.Body.Close()
		return nil, nil, fmt.Errorf("transport: GET %s answered %s with Content-Type %q, not text/event-stream: not a legacy SSE endpoint", s.redacted, resp.Status, clipRunes(mt, 80))
	}
	body := &sseBody{rc: resp.Body, r: sse.NewReader(resp.Body), req: resp.Request}
	body.r.SetMaxEventSize(s.maxEvent)
	var early []inboundLegacy
	earlyBytes := 0
	for {
		ev, err := body.r.Next()
		if err != nil {
			if err == io.EOF {
				err = fmt.Errorf("%w before its endpoint event (GET %s)", errLegacySSEEnded, s.redacted)
			} else {
				err = fmt.Errorf("transport: legacy SSE %s: reading the endpoint event: %w", s.redacted, err)
			}
			return body, nil, err
		}
		switch ev.Type {
		case "endpoint":
			endpoint, err := s.resolveEndpoint(resp.Request.URL, ev.Data)
			if err != nil {
				return body, nil, err
			}
			s.endpoint = endpoint
			s.postHeader = baseHeader(s.cfg.Headers, endpoint)
			s.postHeader.Set("Content-Type", "application/json")
			return body, early, nil
		case "", "message":
			early = append(early, decodeEvent(ev.Data)...)
			earlyBytes += len(ev.Data)
			if len(early) > jsonrpc.DefaultQueueLength || earlyBytes > jsonrpc.DefaultQueueBytes {
				// Nothing reads them before the endpoint is known: a
				// server that floods first would fill memory.
				return body, nil, fmt.Errorf("transport: legacy SSE %s: the server sent more than %d messages or %d MiB before its endpoint event",
					s.redacted, jsonrpc.DefaultQueueLength, jsonrpc.DefaultQueueBytes>>20)
			}
		}
	}
}

// resolveEndpoint resolves the endpoint event's data against the URL the
// stream came from and refuses another origin.
func (s *sseStream) resolveEndpoint(base *url.URL, data []byte) (*url.URL, error) {
	raw := strings.TrimSpace(string(data))
	if raw == "" {
		return nil, fmt.Errorf("transport: legacy SSE %s: the endpoint event is empty", s.redacted)
	}
	// The data is not quoted in errors: its query usually holds the
	// session id, which is as good as a credential.
	ref, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("transport: legacy SSE %s: the endpoint event's data is not a valid URL", s.redacted)
	}
	endpoint := base.ResolveReference(ref)
	if !origin.Same(endpoint, s.url) {
		return nil, fmt.Errorf("transport: legacy SSE %s: the endpoint event names %s, another origin; refusing to send messages (and headers) there",
			s.redacted, redactParsedURL(endpoint))
	}
	return endpoint, nil
}

// decodeEvent turns one message event's data into stream items: its
// messages (a JSON array gives several) and, for a bad payload, a
// *jsonrpc.DecodeError after which the stream goes on.
func decodeEvent(data []byte) []inboundLegacy {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil // nothing to decode: not a message
	}
	msgs, err := jsonrpc.DecodeFrame(data)
	items := make([]inboundLegacy, 0, len(msgs)+1)
	for _, m := range msgs {
		items = append(items, inboundLegacy{msg: m})
	}
	if err != nil {
		items = append(items, inboundLegacy{err: err})
	}
	return items
}

// parseHTTPURL checks that raw is an absolute http or https URL; what
// names the transport in errors.
func parseHTTPURL(what, raw string) (*url.URL, error) {
	if raw == "" {
		return nil, fmt.Errorf("transport: %s needs a URL", what)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("transport: %s URL %s is not a valid URL", what, redactURL(raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("transport: %s URL %s: scheme must be http or https", what, redactURL(raw))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("transport: %s URL %s has no host", what, redactURL(raw))
	}
	return u, nil
}

// checkHeaderValues refuses header names or values that cannot be sent,
// naming the header but never its value.
func checkHeaderValues(h http.Header, u *url.URL) error {
	for k, vs := range h {
		if k == "" || strings.ContainsAny(k, " \t\r\n:\x00") {
			return fmt.Errorf("transport: header name %q for %s is not a valid HTTP header name", k, redactParsedURL(u))
		}
		for _, v := range vs {
			if strings.ContainsAny(v, "\r\n\x00") {
				return fmt.Errorf("transport: header %q for %s has a value with a line break or NUL", k, redactParsedURL(u))
			}
		}
	}
	return nil
}

// httpRequestError describes a request that got no reply. net/http's
// *url.Error quotes the whole URL, query included, so it is unwrapped and
// the redacted URL used instead.
func httpRequestError(method, redacted, what string, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("transport: %s %s (%s): %w", method, redacted, what, err)
}
