package transport

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryAfterLimit is the longest Retry-After that a safe request waits
// for before it is sent once more. A server asking for longer gets the
// error at once: a caller with a deadline would rather know.
const retryAfterLimit = 10 * time.Second

// notEndpointExcerpt is how much of a body that is not MCP an error quotes.
const notEndpointExcerpt = 200

// retryAfter returns the wait a 429 or 503 reply asks for, when it asks
// for one within retryAfterLimit (in seconds, or as an HTTP date).
func retryAfter(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0, false
	}
	v := strings.TrimSpace(resp.Header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.ParseUint(v, 10, 32); err == nil {
		d = time.Duration(secs) * time.Second
	} else if at, err := http.ParseTime(v); err == nil {
		d = max(at.Sub(now), 0)
	} else {
		return 0, false
	}
	return d, d <= retryAfterLimit
}

// waitRetryAfter waits d, or until ctx ends or the stream is over.
func (s *httpStream) waitRetryAfter(ctx context.Context, method string, d time.Duration) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(s.lifeCtx(), cancel)
	defer stop()
	if err := s.ep.cfg.sleep(ctx, d); err != nil {
		if err := s.openErr(); err != nil {
			return err
		}
		return fmt.Errorf("transport: POST %s (%s): waiting %s as Retry-After asked: %w", s.redacted(), method, d, context.Cause(ctx))
	}
	return nil
}

// notEndpointError explains a 2xx reply to a request that is neither JSON
// nor an event stream: most often an HTML login page of a single sign-on
// proxy, or a proxy's own page, so the URL is not (or not only) an MCP
// endpoint. It quotes the start of the body, with the credentials the
// request carried taken out, since such pages may echo the request.
func (s *httpStream) notEndpointError(c *postCall, resp *http.Response) error {
	head, _ := io.ReadAll(io.LimitReader(resp.Body, notEndpointExcerpt))
	excerpt := strings.ToValidUTF8(strings.TrimSpace(string(head)), "\uFFFD")
	excerpt = scrubSecrets(excerpt, sentSecrets(resp.Request))
	return fmt.Errorf("transport: POST %s (%s): %w: the server answered %s with Content-Type %q (a login page or a proxy's page?); the body begins %q",
		s.redacted(), c.method, ErrNotMCPEndpoint, resp.Status, clip(mediaType(resp.Header.Get("Content-Type")), 80), excerpt)
}

// ErrNotMCPEndpoint is wrapped by the error of a request whose reply was
// neither JSON nor an event stream: the URL does not lead to an MCP server
// (an HTML login page or a proxy's error page answered instead).
var ErrNotMCPEndpoint = errors.New("not an MCP endpoint")
