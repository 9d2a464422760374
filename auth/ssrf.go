package auth

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// errLinkLocal: a URL that a server's challenge or metadata named for
// discovery, registration or tokens points at a link-local address, where
// cloud metadata endpoints (169.254.169.254, fd00:ec2::254's link-local
// kin) hand out the machine's own credentials. Such a request is never
// sent. Private ranges (10/8, 172.16/12, 192.168/16, fc00::/7) are allowed:
// company authorization servers live there. See docs/security.md.
var errLinkLocal = errors.New("auth: link-local address")

// linkLocal reports whether ip is link-local (169.254.0.0/16, fe80::/10,
// also as an IPv4-mapped IPv6 address) or the EC2 IPv6 metadata address.
func linkLocal(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip == ec2MetadataV6
}

// ec2MetadataV6 is the IPv6 address of the EC2 instance metadata service,
// which is not link-local by its prefix.
var ec2MetadataV6 = netip.MustParseAddr("fd00:ec2::254")

// refuseLinkLocal refuses a URL whose host is a link-local address
// literal. Names that resolve to one are refused when the connection is
// made (see guardedDialer); a caller's own HTTPClient must guard that
// itself.
func refuseLinkLocal(what, raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return nil // unparsable URLs are refused where they are used
	}
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil && linkLocal(ip) {
		return fmt.Errorf("%w: the %s %s points at a link-local address, where cloud metadata services live; refusing to send it anything", errLinkLocal, what, redactURL(raw))
	}
	return nil
}

// defaultHTTPClient is the Authorizer's client when none is given: a
// 30 s timeout, a dialer that refuses link-local addresses however the
// name resolved, and "localhost" names pinned to loopback (never looked
// up, never proxied), as plain http to them is allowed.
func defaultHTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: refuseLinkLocalConn}
	tr.DialContext = d.DialContext
	origin.PinLocalhostTransport(tr)
	return &http.Client{Timeout: 30 * time.Second, Transport: tr}
}

// refuseLinkLocalConn is a net.Dialer Control: it runs with the resolved
// address, before the connection is made.
func refuseLinkLocalConn(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && linkLocal(ip) {
		return fmt.Errorf("%w: refusing to connect to %s", errLinkLocal, host)
	}
	return nil
}
