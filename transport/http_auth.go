package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/mcpwire/mcpwire/internal/origin"
	"github.com/mcpwire/mcpwire/internal/seam"
)

// Authorizer adds credentials to the requests of the HTTP transports and
// reacts to the server's authorization challenges (HTTP 401 and 403). The
// auth package implements it with OAuth 2.1 as MCP specifies; anything
// else that can put an Authorization header on a request can too.
//
// The transports call it only for requests to the origin (scheme, host and
// port) of their configured URL, so credentials never follow a redirect
// to another origin. Both methods may be called from many goroutines at
// once and must honour ctx.
type Authorizer interface {
	// Authorize is called before every request to the server; it sets the
	// credentials (normally "Authorization: Bearer ..."), or leaves the
	// request alone when it has none yet. An error fails the request.
	Authorize(ctx context.Context, req *http.Request) error
	// Challenge is called with a 401 or 403 reply to a request that
	// Authorize prepared (resp.Request is that request). It may obtain new
	// credentials (discovery, user consent, token refresh) and reports
	// whether the request should be sent again. It must not read or close
	// resp.Body. With retry false and a nil error the reply is handed on
	// as it is (an *HTTPError to the caller); an error fails the request
	// and is wrapped in the transport's error.
	Challenge(ctx context.Context, resp *http.Response) (retry bool, err error)
}

// maxAuthRetries bounds how often one request is sent again after
// challenges. The Authorizer is expected to give up earlier (MCP clients
// limit authorization attempts to three); this is the transport's own
// guarantee that a confused Authorizer cannot loop forever.
const maxAuthRetries = 5

// authRoundTripper runs every request to the server's origin through an
// Authorizer: credentials before sending, challenges after.
type authRoundTripper struct {
	next   http.RoundTripper
	auth   Authorizer
	origin *url.URL
	// The optional interfaces of auth, asserted once rather than per
	// request; nil when auth lacks them.
	observer seam.AuthorizationObserver
	replies  seam.AuthorizationReplyObserver
}

// withAuthorizer returns c with its transport wrapped by auth for requests
// to endpoint's origin. c is modified; callers pass their own copy.
func withAuthorizer(c *http.Client, auth Authorizer, endpoint *url.URL) {
	if auth == nil {
		return
	}
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = newAuthRoundTripper(next, auth, endpoint)
}

func newAuthRoundTripper(next http.RoundTripper, auth Authorizer, endpoint *url.URL) *authRoundTripper {
	t := &authRoundTripper{next: next, auth: auth, origin: endpoint}
	t.observer, _ = auth.(seam.AuthorizationObserver)
	t.replies, _ = auth.(seam.AuthorizationReplyObserver)
	return t
}

func (t *authRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if !origin.Same(req.URL, t.origin) {
		return t.next.RoundTrip(req)
	}
	ctx := req.Context()
	for attempt := 0; ; attempt++ {
		out := req.Clone(ctx)
		if attempt > 0 && req.Body != nil && req.Body != http.NoBody {
			body, err := req.GetBody()
			if err != nil {
				return nil, fmt.Errorf("authorization: re-reading the request body to send it again: %w", err)
			}
			out.Body = body
		}
		if err := t.auth.Authorize(ctx, out); err != nil {
			closeBody(out.Body)
			return nil, err
		}
		resp, err := t.next.RoundTrip(out)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			if t.observer != nil {
				t.observer.Accepted(out)
			}
			if t.replies != nil {
				t.replies.AcceptedReply(resp)
			}
			return resp, nil
		}
		// A session's DELETE on close is best effort: it must not start an
		// authorization (perhaps a browser window) while the client goes
		// away. A body that cannot be sent twice cannot be retried.
		if req.Method == http.MethodDelete || attempt >= maxAuthRetries ||
			(req.Body != nil && req.Body != http.NoBody && req.GetBody == nil) {
			return resp, nil
		}
		retry, err := t.auth.Challenge(ctx, resp)
		if err != nil {
			discard(resp.Body)
			if ce := context.Cause(ctx); ce != nil && errors.Is(err, ce) {
				return nil, err
			}
			return nil, &AuthorizationError{StatusCode: resp.StatusCode, Err: err}
		}
		if !retry {
			return resp, nil
		}
		discard(resp.Body)
	}
}

// AuthorizationError is the error of a request whose authorization
// challenge (a 401 or 403 reply) the Authorizer could not satisfy: the
// user cancelled, no credentials could be obtained, the retry budget ran
// out. Err says why; it never holds a credential.
type AuthorizationError struct {
	// StatusCode is the status that challenged the request: 401 or 403.
	StatusCode int
	Err        error
}

func (e *AuthorizationError) Error() string {
	return fmt.Sprintf("HTTP %d %s, and authorization failed: %v", e.StatusCode, http.StatusText(e.StatusCode), e.Err)
}

func (e *AuthorizationError) Unwrap() error { return e.Err }

// discard reads a little of a body (so the connection can be reused) and
// closes it.
func discard(body io.ReadCloser) {
	if body == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(body, 64<<10))
	body.Close()
}

func closeBody(body io.ReadCloser) {
	if body != nil {
		body.Close()
	}
}
