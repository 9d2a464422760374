package cli

import (
	"net/http"
	"time"
)

// serveTimeouts bound what a connection to serve's listeners (--listen,
// --metrics-listen) may hold without doing anything: sending its request
// headers, and sitting idle between requests. Neither waits on a
// credential (the Host check and the token come after the headers), so
// without them anyone who reaches the port could hold a goroutine and a
// descriptor per connection for ever. Bodies and responses are not
// bounded here: an event stream lasts as long as its session.
var serveTimeouts = struct{ header, idle time.Duration }{header: 10 * time.Second, idle: 2 * time.Minute}

// newServeHTTPServer is the http.Server of serve's listeners.
func newServeHTTPServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: serveTimeouts.header, IdleTimeout: serveTimeouts.idle}
}
