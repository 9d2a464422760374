package transport

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// defaultUserAgent is what net/http sends when a request names none; the
// transports name it themselves, which spares net/http formatting it into
// every request.
const defaultUserAgent = "Go-http-client/1.1"

// redirectSlurpLimit bounds how much of a redirect's body is read so that
// its connection can be reused (net/http's figure).
const redirectSlurpLimit = 2 << 10

// httpSender sends the requests of one stream or call: through the
// caller's HTTPClient (with the redirect check installed), or else through
// the shared transport, calling its RoundTrip directly and following
// redirects itself. The direct way spares what http.Client.Do costs every
// request (a copy of the headers kept for redirects, the URL copied,
// contexts) while keeping the client's policy: at most 10 redirects, 301,
// 302 and 303 turn into a GET without a body, 307 and 308 resend the body,
// and a redirect to another origin carries no credentials, session id or
// configured header.
//
// Requests share read-only header maps (see httpHeaders); neither path
// writes to them: RoundTrippers must not, redirects get a copy, and a
// client with a cookie jar, which adds to the request's own header, is
// given a copy too.
type httpSender struct {
	client     *http.Client      // the caller's; nil means rt
	rt         http.RoundTripper // the shared transport, maybe behind the Authorizer
	configured http.Header       // stripped on a redirect to another origin
	release    sync.Once
}

func newHTTPSender(hc *http.Client, configured http.Header, auth Authorizer, endpoint *url.URL) *httpSender {
	if hc != nil {
		c := *hc
		c.CheckRedirect = stripOnCrossOrigin(configured, hc.CheckRedirect)
		withAuthorizer(&c, auth, endpoint)
		return &httpSender{client: &c}
	}
	var rt http.RoundTripper = acquireSharedTransport()
	if auth != nil {
		rt = newAuthRoundTripper(rt, auth, endpoint)
	}
	return &httpSender{rt: rt, configured: configured}
}

// close gives the shared transport back; it is idempotent.
func (s *httpSender) close() {
	if s.client == nil {
		s.release.Do(releaseSharedTransport)
	}
}

// do sends req, whose body (if any) holds body, and decodes a gzip reply.
func (s *httpSender) do(req *http.Request, body []byte) (*http.Response, error) {
	var resp *http.Response
	var err error
	if s.client != nil {
		if s.client.Jar != nil {
			req.Header = req.Header.Clone()
		}
		resp, err = s.client.Do(req)
	} else {
		resp, err = s.follow(req, body)
	}
	if err != nil {
		return nil, err
	}
	decodeGzip(resp)
	return resp, nil
}

// follow sends req with the round tripper and follows redirects.
func (s *httpSender) follow(req *http.Request, body []byte) (*http.Response, error) {
	first := req
	stripped, withBody := false, req.Body != nil && req.Body != http.NoBody
	for hops := 1; ; hops++ {
		resp, err := s.rt.RoundTrip(req)
		if err != nil {
			return nil, err
		}
		method, redirect, keepBody := redirectBehavior(req.Method, resp.StatusCode)
		if !redirect {
			return resp, nil
		}
		loc := resp.Header.Get("Location")
		if loc == "" {
			return resp, nil
		}
		if resp.ContentLength < 0 || resp.ContentLength <= redirectSlurpLimit {
			_, _ = io.CopyN(io.Discard, resp.Body, redirectSlurpLimit)
		}
		resp.Body.Close()
		if hops >= maxRedirects {
			return nil, errTooManyRedirects
		}
		u, err := req.URL.Parse(loc)
		if err != nil {
			// Not quoted: a Location may carry a token in its query.
			return nil, errors.New("a redirect's Location header is not a valid URL")
		}
		if !origin.Same(u, first.URL) {
			stripped = true // for good, even if a later hop comes back
		}
		withBody = withBody && keepBody
		h := first.Header.Clone()
		if stripped {
			stripSensitive(h, s.configured)
		}
		if !withBody {
			h.Del("Content-Type")
		}
		setBasicAuth(h, u)
		var rbody []byte
		if withBody {
			rbody = body
		}
		req = newHTTPRequest(first.Context(), method, u, h, rbody)
	}
}

// redirectBehavior is net/http's: whether a status redirects, with which
// method, and whether the body goes along.
func redirectBehavior(method string, status int) (next string, redirect, keepBody bool) {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther:
		if method != http.MethodGet && method != http.MethodHead {
			method = http.MethodGet
		}
		return method, true, false
	case http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return method, true, true
	}
	return method, false, false
}

// newHTTPRequest builds a request for u with the header map h (shared,
// never modified) and, when body is not nil, that body, which net/http
// may read again (GetBody) to resend on a reused connection that failed.
func newHTTPRequest(ctx context.Context, method string, u *url.URL, h http.Header, body []byte) *http.Request {
	r := http.Request{
		Method:     method,
		URL:        u,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header:     h,
		Host:       u.Host,
	}
	if body != nil {
		r.ContentLength = int64(len(body))
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.GetBody = func() (io.ReadCloser, error) {
			return io.NopCloser(bytes.NewReader(body)), nil
		}
	}
	return r.WithContext(ctx)
}

// Values of the fixed headers, shared by every header map: a header map is
// never changed in place once built (Set replaces a value, Clone copies),
// so the maps of many sessions need not each hold copies.
var (
	userAgentValue   = []string{defaultUserAgent}
	gzipValue        = []string{"gzip"}
	acceptPOSTValue  = []string{acceptPOST}
	contentJSONValue = []string{"application/json"}
)

// baseHeader is the header every request of a transport starts from: the
// configured headers under their canonical names, the user agent, gzip
// (decoded by decodeGzip), and Basic credentials from the URL's userinfo,
// which http.Client would have added.
func baseHeader(configured http.Header, u *url.URL) http.Header {
	h := make(http.Header, len(configured)+6)
	for k, vs := range configured {
		h[http.CanonicalHeaderKey(k)] = append([]string(nil), vs...)
	}
	if _, ok := h["User-Agent"]; !ok {
		h["User-Agent"] = userAgentValue
	}
	if _, ok := h["Accept-Encoding"]; !ok {
		h["Accept-Encoding"] = gzipValue
	}
	setBasicAuth(h, u)
	return h
}

// setBasicAuth adds Basic credentials from u's userinfo unless h has an
// Authorization header.
func setBasicAuth(h http.Header, u *url.URL) {
	if u.User == nil || h.Get("Authorization") != "" {
		return
	}
	pw, _ := u.User.Password()
	h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pw)))
}

// firstValue is h.Get(key) for a key in canonical form, without the
// check of key's form that Get makes each time: the headers of every
// reply are read with it.
func firstValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// decodeGzip undoes a gzip Content-Encoding. The transports ask for gzip
// themselves (net/http would otherwise add the header to every request,
// at a cost), so they also decode it, as net/http would have.
func decodeGzip(resp *http.Response) {
	if resp.ContentLength == 0 || resp.Request != nil && resp.Request.Method == http.MethodHead ||
		!strings.EqualFold(firstValue(resp.Header, "Content-Encoding"), "gzip") {
		return
	}
	resp.Body = &gzipBody{rc: resp.Body}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
}

// gzipBody decompresses a reply body, starting at the first Read so that
// a body that is never read costs nothing.
type gzipBody struct {
	rc  io.ReadCloser
	zr  *gzip.Reader
	err error
}

func (b *gzipBody) Read(p []byte) (int, error) {
	if b.zr == nil {
		if b.err != nil {
			return 0, b.err
		}
		zr, err := gzip.NewReader(b.rc)
		if err != nil {
			b.err = err
			return 0, err
		}
		b.zr = zr
	}
	return b.zr.Read(p)
}

func (b *gzipBody) Close() error { return b.rc.Close() }
