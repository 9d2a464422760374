package inspect

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"net/http"
	"sync"
)

//go:embed assets
var assets embed.FS

// Options configure the inspector.
type Options struct {
	// Servers are the servers the page works on (required).
	Servers Servers
	// Wire is the timeline the servers' recorders write to; nil shows
	// an empty one.
	Wire *Wire
	// Token is the session's secret (NewToken); required.
	Token string
	// Hosts are host names besides this machine's that the Host header
	// may name (the address of --listen; for a wildcard one, every
	// address and the name of this machine). IP addresses match however
	// the header spells them. Whatever the name, the Host header must
	// carry the port the request came in on.
	Hosts []string
	// Hooks answer the servers' sampling, elicitation and roots
	// requests from the page and keep the problems their clients meet;
	// the clients must have been connected with Hooks.Apply. Nil: the
	// page shows no questions.
	Hooks *Hooks
	// Redact removes secrets from text shown on the page (errors, stderr);
	// nil leaves text as it is.
	Redact func(string) string
	// SandboxOrigin is where Server.Sandbox is served (http://HOST:PORT,
	// another port than the page's): the origin of MCP App views' sandbox
	// proxies. Empty, views are not rendered.
	SandboxOrigin string
	// SignIn signs in to an OAuth server from the page (its "Sign in"
	// button); nil, the page offers none.
	SignIn SignIn
}

// Server is the inspector's web application.
type Server struct {
	opts    Options
	handler http.Handler
	hub     *hub
	calls   *calls
	guard   *guard
	apps    appViews
	signIns *signIns
	// redactJSON masks Options.Redact's secrets in a server's reply.
	redactJSON func([]byte) []byte

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	stop   func()
}

// New returns the inspector for opts. Close it to end its calls and
// event streams.
func New(opts Options) (*Server, error) {
	if opts.Servers == nil {
		return nil, errors.New("inspect: no servers")
	}
	if len(opts.Token) < 16 {
		return nil, errors.New("inspect: the token must be at least 16 characters")
	}
	if err := checkSandboxOrigin(opts.SandboxOrigin); err != nil {
		return nil, err
	}
	if opts.Wire == nil {
		opts.Wire = NewWire(0, 0)
	}
	if opts.Hooks == nil {
		opts.Hooks = NewHooks()
	}
	var redact func(string) string // nil: nothing to mask in replies
	if opts.Redact == nil {
		opts.Redact = func(s string) string { return s }
	} else {
		redact = opts.Redact
	}
	s := &Server{opts: opts, hub: newHub(), signIns: newSignIns(),
		redactJSON: func(b []byte) []byte { return redactJSON(b, redact) }}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.calls = newCalls(s.hub)
	opts.Wire.setNotify(func(e *WireEntry) { s.hub.publish(event{kind: "wire", wire: e}) })
	opts.Hooks.setNotify(func() { s.hub.publish(event{kind: "asks"}) })
	stopWatch := opts.Servers.Watch(func() { s.hub.publish(event{kind: "servers"}) })
	s.stop = stopWatch
	// The manager's servers tell of their clients' problems by events.
	if w, ok := opts.Servers.(interface {
		warnings(func(string, error)) func()
	}); ok {
		stopWarnings := w.warnings(opts.Hooks.addProblem)
		s.stop = func() { stopWatch(); stopWarnings() }
	}
	static, _ := fs.Sub(assets, "assets")
	files := http.NewServeMux()
	files.Handle("GET /", http.FileServerFS(static))
	api := newAPIMux()
	s.routes(api)
	s.appRoutes(api)
	s.guard = newGuard(opts.Token, opts.Hosts, withCSP(pageHandler(api, files), opts.SandboxOrigin))
	s.handler = s.guard
	return s, nil
}

// Path is where the page is served: a path random per Server, with a
// trailing slash. Every other path is answered 404, and the token cookie
// is scoped to this one, so that the browser sends it to no other local
// web server. The URL to open is http://HOST:PORT + Path + "?token=" +
// Options.Token.
func (s *Server) Path() string { return s.guard.base + "/" }

// ServeHTTP serves the page and its API. It must be served by an
// http.Server: a request's Host header must carry the port the connection
// came in on (http.LocalAddrContextKey), and one without that address is
// refused.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// Close cancels the calls still running, ends the event streams and waits
// for both.
func (s *Server) Close() error {
	s.stop()
	s.opts.Wire.setNotify(nil)
	s.opts.Hooks.setNotify(nil)
	s.cancel()
	s.hub.close()
	s.wg.Wait()
	return nil
}

// withCSP confines the page to its own origin: no script, style or
// connection elsewhere; images and audio of results come as data: URLs;
// frames only from the sandbox origin of MCP App views.
func withCSP(next http.Handler, sandboxOrigin string) http.Handler {
	frames := "'none'"
	if sandboxOrigin != "" {
		frames = sandboxOrigin
	}
	csp := "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src data:; connect-src 'self'; frame-src " + frames + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", csp)
		next.ServeHTTP(w, r)
	})
}
