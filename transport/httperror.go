package transport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/origin"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// httpErrorBodyLimit bounds the body excerpt an *HTTPError keeps.
const httpErrorBodyLimit = 1024

// httpErrorBodySlack is read beyond the excerpt, so that a credential
// echoed across its end is scrubbed rather than kept in part.
const httpErrorBodySlack = 4096

// HTTPError is a reply with a non-2xx status (or another status the
// transport cannot use). It names the method, the redacted URL and the
// status, keeps an excerpt of the body and the authorization hints a client
// needs to react to 401 and 403. It never includes request header values:
// a server that echoes the credentials it received (the Authorization
// header, configured headers, the URL's password) in its body, its
// JSON-RPC error or its headers finds them replaced by "[redacted]".
//
// Test for it with errors.As.
type HTTPError struct {
	// StatusCode is the HTTP status code, e.g. 404.
	StatusCode int
	// Status is the status line text, e.g. "404 Not Found".
	Status string
	// Method is the request method, e.g. "POST".
	Method string
	// URL is the request URL without userinfo, fragment or query values.
	URL string
	// Body is the start of the reply body (at most 1 KiB, valid UTF-8).
	Body string
	// RPCError is the JSON-RPC error object when the body was a JSON-RPC
	// error response, as servers send for 400 (bad session, bad version).
	RPCError *jsonrpc.Error
	// WWWAuthenticate is the WWW-Authenticate header of a 401 or 403,
	// which names the protected resource metadata and the needed scope.
	WWWAuthenticate string
	// AuthServer is the Mcp-Auth-Server header, a hint some servers give
	// about which authorization server to use.
	AuthServer string
}

func (e *HTTPError) Error() string {
	var b strings.Builder
	b.WriteString("transport: ")
	if e.Method != "" {
		b.WriteString(e.Method)
		b.WriteByte(' ')
	}
	if e.URL != "" {
		b.WriteString(e.URL)
		b.WriteString(": ")
	}
	status := e.Status
	if status == "" {
		status = fmt.Sprintf("%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	}
	if e.StatusCode == http.StatusRequestEntityTooLarge {
		// Said first: the server refused the size, not the method or
		// the protocol version.
		b.WriteString("request too large (")
	}
	b.WriteString("HTTP ")
	b.WriteString(status)
	if e.StatusCode == http.StatusRequestEntityTooLarge {
		b.WriteString(")")
	}
	if e.WWWAuthenticate != "" {
		fmt.Fprintf(&b, " (WWW-Authenticate: %s)", clipRunes(e.WWWAuthenticate, 300))
	}
	if e.AuthServer != "" {
		fmt.Fprintf(&b, " (Mcp-Auth-Server: %s)", clipRunes(e.AuthServer, 300))
	}
	switch {
	case e.RPCError != nil:
		fmt.Fprintf(&b, ": %s", e.RPCError.Error())
	case e.Body != "":
		fmt.Fprintf(&b, ": body %q", clipRunes(e.Body, 200))
	}
	return b.String()
}

// ErrRequestTooLarge: the server refused a request for its size (HTTP
// 413). errors.Is finds it in an *HTTPError with that status.
var ErrRequestTooLarge = errors.New("transport: request too large")

// Is reports whether target is ErrRequestTooLarge and e is a 413.
func (e *HTTPError) Is(target error) bool {
	return target == ErrRequestTooLarge && e.StatusCode == http.StatusRequestEntityTooLarge
}

// newHTTPError describes resp, which came from a method request. It reads
// at most 1 KiB of the body for the excerpt and closes the body.
func newHTTPError(resp *http.Response, method string) *HTTPError {
	e := &HTTPError{
		StatusCode:      resp.StatusCode,
		Status:          resp.Status,
		Method:          method,
		WWWAuthenticate: strings.Join(resp.Header.Values("WWW-Authenticate"), ", "),
		AuthServer:      resp.Header.Get("Mcp-Auth-Server"),
	}
	if resp.Request != nil && resp.Request.URL != nil {
		e.URL = redactParsedURL(resp.Request.URL)
	}
	// A hostile server may echo the credentials it received (a 500 page
	// that prints the request headers): they never reach the error.
	secrets := sentSecrets(resp.Request)
	e.WWWAuthenticate = scrubSecrets(e.WWWAuthenticate, secrets)
	e.AuthServer = scrubSecrets(e.AuthServer, secrets)
	if resp.Body != nil {
		// Read past the excerpt's end so that a secret cut by it is still
		// recognised and scrubbed whole.
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, httpErrorBodyLimit+httpErrorBodySlack))
		resp.Body.Close()
		raw = bytes.TrimSpace(raw)
		body := scrubSecrets(strings.ToValidUTF8(string(raw), "\uFFFD"), secrets)
		e.Body = clipRunes(body, httpErrorBodyLimit)
		if len(raw) <= httpErrorBodyLimit {
			if m, err := jsonrpc.DecodeMessage(raw); err == nil {
				if r, ok := m.(*jsonrpc.Response); ok && r.Error != nil {
					scrubRPCError(r.Error, secrets)
					e.RPCError = r.Error
				}
			}
		}
	}
	return e
}

// IsHTTPStatus reports whether err is (or wraps) an *HTTPError with one of
// the given status codes.
func IsHTTPStatus(err error, codes ...int) bool {
	var he *HTTPError
	if !errors.As(err, &he) {
		return false
	}
	for _, c := range codes {
		if he.StatusCode == c {
			return true
		}
	}
	return false
}

// redactURL formats a configured URL for errors and logs: without userinfo
// (a password or token), fragment, or query values (which often carry
// keys or session ids). A string that does not parse is cut down the same
// way by hand rather than quoted whole.
func redactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return redactParsedURL(u)
	}
	s, _, _ := strings.Cut(raw, "#")
	s, q, hasQuery := strings.Cut(s, "?")
	if scheme, rest, ok := strings.Cut(s, "://"); ok {
		authority, path, _ := strings.Cut(rest, "/")
		if i := strings.LastIndexByte(authority, '@'); i >= 0 {
			authority = authority[i+1:]
		}
		s = scheme + "://" + authority
		if path != "" || strings.Contains(rest, "/") {
			s += "/" + path
		}
	} else {
		s = origin.CutBareUserinfo(s)
	}
	if hasQuery && q != "" {
		s += "?REDACTED"
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// redactParsedURL is redactURL for a parsed URL.
func redactParsedURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.Fragment, c.RawFragment = "", ""
	c.ForceQuery = false
	if c.RawQuery != "" {
		q := c.Query()
		parts := make([]string, 0, len(q))
		for k, vs := range q {
			for range vs {
				parts = append(parts, url.QueryEscape(k)+"=REDACTED")
			}
		}
		slices.Sort(parts)
		c.RawQuery = strings.Join(parts, "&")
		if c.RawQuery == "" {
			c.RawQuery = "REDACTED"
		}
	}
	if c.Host == "" {
		// No "//": url.Parse saw no authority, so credentials typed
		// without the scheme ("user:token@host/mcp") are still there,
		// as the scheme and opaque part or as the path.
		return origin.CutBareUserinfo(c.String())
	}
	return c.String()
}

// clipRunes shortens s to at most n bytes for an error line.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
