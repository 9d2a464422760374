package origin

import (
	"net/netip"
	"strings"
)

// CanonicalHost is the form in which a Host check compares a host name or
// address (without port): a name in lower case; an IP address with or
// without brackets, as Go writes it, without its zone and with an
// IPv4-mapped address unmapped ("[FE80:0::1]" is "fe80::1",
// "::ffff:10.0.0.1" is "10.0.0.1"), so that a browser's or a flag's
// spelling of an address matches another's.
func CanonicalHost(h string) string {
	if a, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return a.WithZone("").Unmap().String()
	}
	return strings.ToLower(h)
}
