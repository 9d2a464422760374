package cli

import (
	"net"
	"strings"
)

// checkAllowedHost refuses an --allowed-host value that no request's Host
// could match: the check compares the bare host name (its port dropped),
// so a value with a port, a scheme or a path would leave every request
// refused with 403, and nothing would say why at start. Its errors quote
// no value (Usagef's rule), only its position.
func checkAllowedHost(i int, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return Usagef("--allowed-host #%d is empty", i+1)
	case strings.Contains(name, "*"):
		return Usagef("--allowed-host #%d has a wildcard (*): wildcards are not supported; give each name hosts use. Any name would let a web page reach the gateway through DNS rebinding (its own name pointed at this machine), which the Host check is there to stop", i+1)
	case strings.ContainsAny(name, "/?#@ "):
		return Usagef("--allowed-host #%d is not a host name (no scheme, path or user: just the name hosts use, e.g. mcp.example.com)", i+1)
	}
	// A bracketed IPv6 address ("[fe80::1]") is the form it has in a URL
	// and in Host: the gateway compares it without its brackets.
	if _, _, err := net.SplitHostPort(name); err == nil {
		return Usagef("--allowed-host #%d has a port: give the name alone (any port is accepted)", i+1)
	}
	return nil
}
