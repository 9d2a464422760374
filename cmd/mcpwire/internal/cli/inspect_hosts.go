package cli

import (
	"net"
	"os"
)

// machineHosts are the names another machine reaches this one by, for
// the Host check of an inspector listening on every interface (--listen
// 0.0.0.0:PORT or [::]:PORT): each address of this machine's interfaces
// and its hostname. A browser elsewhere sends one of them; a DNS-rebinding
// page sends its own name, which stays refused. They are read once, when
// inspect starts: an address the machine gets later is not among them.
func machineHosts() []string {
	var hosts []string
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok && !ipn.IP.IsLoopback() {
				// Loopback addresses pass the check anyway. A link-local
				// IPv6 address is named with its zone in a URL
				// ([fe80::1%25eth0]); the guard compares without it.
				hosts = append(hosts, ipn.IP.String())
			}
		}
	}
	if name, err := os.Hostname(); err == nil && name != "" {
		hosts = append(hosts, name)
	}
	return hosts
}
