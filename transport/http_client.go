package transport

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// maxRedirects matches net/http's default policy.
const maxRedirects = 10

// maxIdlePerHost is how many idle connections to the server the private
// client keeps: enough for as many concurrent calls as a busy agent makes.
const maxIdlePerHost = 64

// sensitiveHeaders are never carried to another origin by a redirect. The
// session id is here because the spec asks clients to keep it secret.
var sensitiveHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", headerSessionID}

// httpClientFor returns the client the stream uses and, when the transport
// made its own, that client's connection pool so Close can release it.
//
// net/http already drops Authorization on redirects to a different domain,
// but it treats sub-domains and other ports of the same host as the same
// place and knows nothing of the configured headers (an API key in
// X-Api-Key, say). The check installed here compares whole origins
// (scheme, host, port) and strips all of them.
func httpClientFor(cfg *StreamableHTTP) (*http.Client, *http.Transport) {
	if cfg.HTTPClient == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		// Concurrent calls each hold a connection for their POST. With
		// net/http's default of 2 idle connections per host, all but
		// two were closed after every call and redialled for the next.
		tr.MaxIdleConnsPerHost = maxIdlePerHost
		return &http.Client{Transport: tr, CheckRedirect: stripOnCrossOrigin(cfg.Headers, nil)}, tr
	}
	c := *cfg.HTTPClient
	c.CheckRedirect = stripOnCrossOrigin(cfg.Headers, cfg.HTTPClient.CheckRedirect)
	return &c, nil
}

func stripOnCrossOrigin(configured http.Header, next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > 0 && !sameOrigin(req.URL, via[0].URL) {
			for _, k := range sensitiveHeaders {
				req.Header.Del(k)
			}
			for k := range configured {
				req.Header.Del(k)
			}
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		effectivePort(a) == effectivePort(b)
}

func effectivePort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}
