// Package origin compares URLs by origin (scheme, host and port, RFC 6454),
// the check that decides whether credentials may go to a URL: the
// transports apply it to redirects and to a legacy server's endpoint, the
// auth package to a protected resource's identifier. It also says which
// hosts are this machine, where plain http may carry secrets.
package origin

import (
	"net"
	"net/url"
	"strings"
)

// IsLoopbackHost reports whether host (without port) is this machine:
// "localhost" and its subdomains (RFC 6761), or a loopback address
// (127.0.0.0/8, ::1). The names count by name, which is safe only where
// connections to them are pinned to loopback and never resolved through
// DNS: the module's own HTTP clients are (see PinLocalhost).
func IsLoopbackHost(host string) bool {
	if isLocalhostName(host) {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Same reports whether a and b have the same origin: scheme and host
// compared without case, ports after filling in the scheme's default.
func Same(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		port(a) == port(b)
}

// DefaultPort is the port of scheme ("http" or "https", any case) when a
// URL names none; "" for other schemes.
func DefaultPort(scheme string) string {
	switch strings.ToLower(scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	return DefaultPort(u.Scheme)
}
