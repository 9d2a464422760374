package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// HTTPServer is a Server listening on loopback over Streamable HTTP (at
// URL, path /mcp) and the legacy HTTP+SSE transport (at SSEURL, path /sse,
// messages to /message).
type HTTPServer struct {
	// URL is the Streamable HTTP endpoint, http://127.0.0.1:port/mcp.
	URL string
	// SSEURL is the legacy transport's stream URL, http://127.0.0.1:port/sse.
	SSEURL string
	// Streamable and Legacy are the two handlers, for scripting failures
	// and reading what each received.
	Streamable *HTTPHandler
	Legacy     *LegacySSEHandler

	log RequestLog
	ts  *httptest.Server
}

// Requests returns every request the server received, on any path,
// secrets redacted.
func (s *HTTPServer) Requests() []RecordedRequest { return s.log.Requests() }

// Log is the server-wide request log, for waiting on requests.
func (s *HTTPServer) Log() *RequestLog { return &s.log }

// Client returns an http.Client for the server.
func (s *HTTPServer) Client() *http.Client { return s.ts.Client() }

// NewHTTPServer serves srv over HTTP on a loopback port until the test
// ends (opts configure the Streamable handler and may be nil). Cleanup
// ends every session, closes the listener and waits for the handlers.
// Outside tests, use StartHTTPServer.
func NewHTTPServer(t testing.TB, srv *Server, opts *HTTPOptions) *HTTPServer {
	t.Helper()
	s := StartHTTPServer(srv, opts)
	t.Cleanup(s.Close)
	return s
}

// StartHTTPServer serves srv over HTTP on a loopback port until Close
// (opts configure the Streamable handler and may be nil). It needs no
// test: a program can run it to try a client against.
func StartHTTPServer(srv *Server, opts *HTTPOptions) *HTTPServer {
	s := &HTTPServer{Streamable: srv.StreamableHTTPHandler(opts), Legacy: srv.LegacySSEHandler()}
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.Streamable)
	mux.Handle("/sse", s.Legacy)
	mux.Handle("/message", s.Legacy)
	s.ts = httptest.NewServer(recordingHandler(&s.log, mux))
	s.URL = s.ts.URL + "/mcp"
	s.SSEURL = s.ts.URL + "/sse"
	return s
}

// Close ends every session, closes the listener and waits for the
// handlers.
func (s *HTTPServer) Close() {
	s.Streamable.Close()
	s.Legacy.Close()
	s.ts.Close()
}
