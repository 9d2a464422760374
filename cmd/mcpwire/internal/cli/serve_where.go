package cli

import (
	"fmt"
	"net"
	"strconv"
)

// listenAddr is where --listen listens, as the operator is told of it.
type listenAddr struct {
	addr     string // as listened on ("127.0.0.1:8080"), in words for a wildcard
	port     string
	loopback bool // only this machine can connect
	wildcard bool // every address of the machine (0.0.0.0, ::)
	url      string
}

// listenedAt describes the listener's address. A wildcard address
// (0.0.0.0, ::) is no host a client can name, and the gateway would
// refuse it in Host anyway (only loopback names and --allowed-host's are
// accepted): the URL given is this machine's loopback one, which works.
func listenedAt(a net.Addr) listenAddr {
	la := listenAddr{addr: a.String(), url: "http://" + a.String() + "/mcp"}
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return la
	}
	la.port = strconv.Itoa(tcp.Port)
	la.loopback = tcp.IP.IsLoopback()
	if tcp.IP.IsUnspecified() {
		// Go listens on both families for a wildcard address, so
		// 127.0.0.1 reaches a "[::]" listener too.
		la.wildcard = true
		la.addr = "every address of this machine"
		la.url = "http://" + net.JoinHostPort("127.0.0.1", la.port) + "/mcp"
	}
	return la
}

// sayWhere prints where the endpoint serves; for a wildcard address, also
// how other machines reach it.
func (o *gatewayOptions) sayWhere(streams *IOStreams, la listenAddr) {
	if la.wildcard {
		names := "none given, so only this machine's loopback names are accepted"
		if len(o.AllowedHosts) > 0 {
			names = joinAnd(o.AllowedHosts)
		}
		fmt.Fprintf(streams.ErrOut, "mcpwire: serve: listening on every address of this machine, port %s; other machines reach it as http://NAME:%s/mcp for a NAME given with --allowed-host (%s)\n",
			la.port, la.port, Sanitize(names))
	}
	fmt.Fprintf(streams.ErrOut, "mcpwire: serving at %s\n", la.url)
}
