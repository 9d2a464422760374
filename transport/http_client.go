package transport

import (
	"errors"
	"net/http"
	"sync"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// maxRedirects matches net/http's default policy.
const maxRedirects = 10

// maxIdlePerHost is how many idle connections to one server the shared
// transport keeps: enough for as many concurrent calls as a busy agent
// makes. With net/http's default of 2, all but two connections were closed
// after every burst of concurrent calls and redialled for the next.
const maxIdlePerHost = 64

// maxIdleTotal bounds the shared transport's idle connections to all
// servers together.
const maxIdleTotal = 256

// sensitiveHeaders are never carried to another origin by a redirect. The
// session id is here because the spec asks clients to keep it secret.
var sensitiveHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", headerSessionID}

// shared is the connection pool of every HTTP transport that was given no
// HTTPClient, like net/http's DefaultTransport: idle sessions to one server
// share their idle connections instead of each holding its own (with two
// goroutines and two buffers per connection). It lives while some stream
// or call uses it; when the last one ends, its idle connections are
// closed, so a program that closed its connections holds none.
var shared struct {
	mu    sync.Mutex
	tr    *http.Transport
	users int
}

// acquireSharedTransport returns the shared pool and counts a user, who
// must call releaseSharedTransport once.
func acquireSharedTransport() *http.Transport {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.tr == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		// "localhost" names carry secrets over plain http (they are this
		// machine), so they are never looked up in DNS nor proxied.
		origin.PinLocalhostTransport(tr)
		tr.MaxIdleConnsPerHost = maxIdlePerHost
		tr.MaxIdleConns = maxIdleTotal
		shared.tr = tr
	}
	shared.users++
	return shared.tr
}

func releaseSharedTransport() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	shared.users--
	if shared.users == 0 {
		shared.tr.CloseIdleConnections()
	}
}

// stripOnCrossOrigin is the redirect check installed on a caller's
// HTTPClient. net/http already drops Authorization on redirects to a
// different domain, but it treats sub-domains and other ports of the same
// host as the same place and knows nothing of the configured headers (an
// API key in X-Api-Key, say). This check compares whole origins (scheme,
// host, port) and strips all of them; the client's own CheckRedirect runs
// afterwards.
func stripOnCrossOrigin(configured http.Header, next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && !origin.Same(req.URL, via[0].URL) {
			stripSensitive(req.Header, configured)
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return errTooManyRedirects
		}
		return nil
	}
}

var errTooManyRedirects = errors.New("stopped after 10 redirects")

// stripSensitive removes the credentials and the configured headers.
func stripSensitive(h, configured http.Header) {
	for _, k := range sensitiveHeaders {
		h.Del(k)
	}
	for k := range configured {
		h.Del(k)
	}
}
