package origin

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// isLocalhostName reports "localhost" and the names under it (RFC 6761
// section 6.3), case-insensitively, with or without the final dot.
func isLocalhostName(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	return host == "localhost" || strings.HasSuffix(host, ".localhost")
}

// Dialer is the shape of net.Dialer.DialContext and
// http.Transport.DialContext.
type Dialer func(ctx context.Context, network, address string) (net.Conn, error)

// PinLocalhost wraps dial so that "localhost" and "*.localhost" connect to
// 127.0.0.1 or ::1 directly, without a name lookup. IsLoopbackHost counts
// these names as this machine by name (RFC 6761 says they are), which
// holds only if they never resolve elsewhere; the system resolver may ask
// DNS for them (Go's own resolver does for "*.localhost" unless the hosts
// file names them), and a DNS answer would let a network attacker receive
// what was meant for this machine, over plain http. Other addresses go to
// dial unchanged.
func PinLocalhost(dial Dialer) Dialer {
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(address)
		if err != nil || !isLocalhostName(host) {
			return dial(ctx, network, address)
		}
		var errs []error
		for _, ip := range loopbackFor(network) {
			c, err := dial(ctx, network, net.JoinHostPort(ip, port))
			if err == nil {
				return c, nil
			}
			errs = append(errs, err)
			if ctx.Err() != nil {
				break
			}
		}
		return nil, errors.Join(errs...)
	}
}

// loopbackFor lists the loopback addresses a network can reach, IPv4
// first as most servers listen there.
func loopbackFor(network string) []string {
	switch network {
	case "tcp4", "udp4":
		return []string{"127.0.0.1"}
	case "tcp6", "udp6":
		return []string{"::1"}
	}
	return []string{"127.0.0.1", "::1"}
}

// NoProxyForLocalhost wraps an http.Transport's Proxy so that requests to
// this machine never go through a proxy, which would resolve the name
// itself (net/http's environment proxy spares "localhost" and loopback
// addresses, but not "*.localhost").
func NoProxyForLocalhost(proxy func(*http.Request) (*url.URL, error)) func(*http.Request) (*url.URL, error) {
	if proxy == nil {
		return nil
	}
	return func(req *http.Request) (*url.URL, error) {
		if IsLoopbackHost(req.URL.Hostname()) {
			return nil, nil
		}
		return proxy(req)
	}
}

// PinLocalhostTransport applies PinLocalhost and NoProxyForLocalhost to
// tr, which must have a DialContext (clones of http.DefaultTransport do).
func PinLocalhostTransport(tr *http.Transport) {
	dial := tr.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	tr.DialContext = PinLocalhost(dial)
	tr.Proxy = NoProxyForLocalhost(tr.Proxy)
}
