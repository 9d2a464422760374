package auth

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// CanonicalResource returns the canonical URI of an MCP server for the
// resource parameter (RFC 8707) and as the key of stored tokens: scheme
// and host in lower case, the default port dropped, no user info, query
// or fragment, and no trailing slash on the path ("https://h/" is
// "https://h"). The query is dropped because servers sometimes carry keys
// there, and the resource parameter goes to another party.
func CanonicalResource(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("auth: server URL %s is not a valid URL", redactURL(raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "HTTP" && u.Scheme != "HTTPS" {
		return "", fmt.Errorf("auth: server URL %s: scheme must be http or https", redactURL(raw))
	}
	if u.Host == "" {
		return "", fmt.Errorf("auth: server URL %s has no host", redactURL(raw))
	}
	return canonicalURL(u), nil
}

func canonicalURL(u *url.URL) string {
	c := url.URL{
		Scheme:  strings.ToLower(u.Scheme),
		Host:    strings.ToLower(u.Hostname()),
		Path:    strings.TrimSuffix(u.Path, "/"),
		RawPath: strings.TrimSuffix(u.RawPath, "/"),
	}
	if p := u.Port(); p != "" && p != origin.DefaultPort(c.Scheme) {
		c.Host = net.JoinHostPort(c.Host, p)
	} else if strings.Contains(c.Host, ":") {
		c.Host = "[" + c.Host + "]" // IPv6 literal without a port
	}
	return c.String()
}

// resourceMatches reports whether the resource identifier of metadata
// fetched from "from" names this server: the server's canonical URL, or
// its bare origin when the metadata came from the origin's root
// well-known URL (which speaks for the whole origin). Any other value,
// a parent path included, is another resource.
func (a *Authorizer) resourceMatches(resource, from string) bool {
	ru, err := url.Parse(resource) // absolute: a relative one names nothing
	if err != nil || !ru.IsAbs() || ru.Host == "" || ru.User != nil || ru.Fragment != "" || ru.RawQuery != "" || !origin.Same(ru, a.server) {
		return false
	}
	if canonicalURL(ru) == a.key {
		return true
	}
	root := originOf(a.server).String() + "/.well-known/oauth-protected-resource"
	return from == root && strings.TrimSuffix(ru.EscapedPath(), "/") == ""
}

// originOf returns scheme://host[:port] of u.
func originOf(u *url.URL) *url.URL {
	return &url.URL{Scheme: u.Scheme, Host: u.Host}
}

// wellKnownURL inserts /.well-known/<name> between the origin and the
// path of u, as RFC 8414 and RFC 9728 prescribe for identifiers with a
// path ("https://h/t1" -> "https://h/.well-known/<name>/t1"); without a
// path it is "https://h/.well-known/<name>".
func wellKnownURL(u *url.URL, name string) string {
	p := strings.TrimSuffix(u.EscapedPath(), "/")
	return originOf(u).String() + "/.well-known/" + name + p
}

// redactURL formats a URL for errors and logs without user info, query
// values or fragment, which may hold secrets.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		s, _, _ := strings.Cut(raw, "?")
		s, _, _ = strings.Cut(s, "#")
		if i := strings.Index(s, "@"); i >= 0 {
			if j := strings.Index(s, "://"); j >= 0 && j < i {
				s = s[:j+3] + s[i+1:]
			}
		}
		return clip(strings.ToValidUTF8(s, "\uFFFD"), 200)
	}
	return redactParsed(u)
}

func redactParsed(u *url.URL) string {
	c := *u
	c.User = nil
	c.Fragment, c.RawFragment = "", ""
	if c.RawQuery != "" {
		c.RawQuery = "REDACTED"
	}
	if c.Host == "" {
		// Typed without "//" ("u:token@host/mcp"), the user info is in
		// the opaque part or the path, where User misses it.
		return clip(origin.CutBareUserinfo(c.String()), 200)
	}
	return clip(c.String(), 200)
}

// clip shortens s to at most n bytes on a rune boundary for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// clean makes peer-supplied text safe for one line of a message: control
// characters become spaces, invalid UTF-8 is replaced, and it is clipped.
func clean(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	return clip(s, n)
}
