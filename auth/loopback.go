package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"time"
)

// Loopback is the UserAgent for people at a computer: it listens on
// 127.0.0.1 for the redirect (RFC 8252 section 7.3), opens the user's
// browser at the authorization URL and prints the URL too, for when no
// browser opens (a remote shell) or the user prefers to copy it.
//
// The zero value picks a free port and uses the system browser.
type Loopback struct {
	// Port is the listening port on 127.0.0.1; 0 picks a free one. Set it
	// when the authorization server only accepts a registered redirect
	// URI with a fixed port (the "callbackPort" of the oauth config).
	Port int
	// Path is the redirect URI's path; empty means "/callback".
	Path string
	// OpenURL opens a URL in the user's browser. Nil means the system's
	// opener (xdg-open, open, or rundll32 on Windows). Its failure is not
	// fatal: the user can still follow the printed URL.
	OpenURL func(ctx context.Context, url string) error
	// NoBrowser only prints the URL.
	NoBrowser bool
	// Out receives the instructions; nil means os.Stderr.
	Out io.Writer
}

// Open starts listening for the redirect.
func (l *Loopback) Open(ctx context.Context) (Callback, error) {
	return l.open(ctx, l.Port)
}

// openReusing is Open for a sign-in whose client was registered for the
// redirect URI earlier: with no fixed Port, it listens on that URI's port
// when it is free, so that the registration is reused rather than a new
// client registered at the authorization server on every sign-in (the
// port is otherwise a new one each time, and a registration is bound to
// its exact redirect URI). A port that is taken means a new one.
func (l *Loopback) openReusing(ctx context.Context, earlier string) (Callback, error) {
	if l.Port == 0 {
		if port, ok := l.portOf(earlier); ok {
			if cb, err := l.open(ctx, port); err == nil {
				return cb, nil
			}
		}
	}
	return l.open(ctx, l.Port)
}

// portOf is the port of earlier when it is a redirect URI this Loopback
// would make: http, 127.0.0.1, its path.
func (l *Loopback) portOf(earlier string) (int, bool) {
	u, err := url.Parse(earlier)
	if err != nil || u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Path != l.path() || u.RawQuery != "" {
		return 0, false
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil || port <= 0 || port > 65535 {
		return 0, false
	}
	return port, true
}

// path is the redirect URI's path.
func (l *Loopback) path() string {
	path := l.Path
	if path == "" {
		path = "/callback"
	}
	if path[0] != '/' {
		path = "/" + path
	}
	return path
}

func (l *Loopback) open(ctx context.Context, port int) (Callback, error) {
	path := l.path()
	if port < 0 || port > 65535 {
		return nil, fmt.Errorf("auth: callback port %d is out of range", port)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("auth: listening for the authorization redirect on 127.0.0.1:%d: %w", port, err)
	}
	port = ln.Addr().(*net.TCPAddr).Port
	return &loopbackCallback{
		cfg:      l,
		ln:       ln,
		path:     path,
		redirect: "http://127.0.0.1:" + strconv.Itoa(port) + path,
		result:   make(chan url.Values, 1),
	}, nil
}

type loopbackCallback struct {
	cfg      *Loopback
	ln       net.Listener
	path     string
	redirect string
	result   chan url.Values

	mu sync.Mutex
	// state is the state parameter of the authorization URL being
	// awaited: only a redirect that carries it is the answer.
	state   string
	srv     *http.Server
	served  chan struct{} // closed when Serve returned
	closed  bool
	closeMu sync.Once
}

func (c *loopbackCallback) RedirectURI() string { return c.redirect }

// Await serves the redirect URI, shows the user the way and waits for the
// authorization server's answer.
func (c *loopbackCallback) Await(ctx context.Context, authURL string) (url.Values, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, errors.New("auth: the callback is closed")
	}
	if u, err := url.Parse(authURL); err == nil {
		c.state = u.Query().Get("state")
	}
	c.srv = &http.Server{Handler: http.HandlerFunc(c.serve), ReadHeaderTimeout: 10 * time.Second}
	c.served = make(chan struct{})
	srv, served := c.srv, c.served
	c.mu.Unlock()
	go func() {
		defer close(served)
		_ = srv.Serve(c.ln)
	}()

	out := c.cfg.Out
	if out == nil {
		out = os.Stderr
	}
	opened := false
	if !c.cfg.NoBrowser {
		open := c.cfg.OpenURL
		if open == nil {
			open = openBrowser
		}
		opened = open(ctx, authURL) == nil
	}
	if opened {
		fmt.Fprintf(out, "Your browser has been opened to sign in. If it did not open, visit:\n\n  %s\n\nWaiting for the authorization to complete (Ctrl-C to cancel)...\n", authURL)
	} else {
		fmt.Fprintf(out, "To authorize, open this URL in a browser on this computer:\n\n  %s\n\nWaiting for the authorization to complete (Ctrl-C to cancel)...\n", authURL)
	}
	select {
	case v := <-c.result:
		return v, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("auth: waiting for the browser sign-in: %w", context.Cause(ctx))
	}
}

func (c *loopbackCallback) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != c.path {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	// Anyone who can reach 127.0.0.1 (a web page in the browser, another
	// local user) can send a request here. One without this flow's state
	// is not the answer: it is refused and the real redirect is still
	// awaited, until the flow's deadline. Its code or error is never read.
	c.mu.Lock()
	state := c.state
	c.mu.Unlock()
	if state != "" && subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
		http.Error(w, "This request does not carry the state of the sign-in in progress, so it was ignored.", http.StatusBadRequest)
		return
	}
	if q.Get("code") == "" && q.Get("error") == "" {
		http.Error(w, "This address receives OAuth authorization responses; this request has neither a code nor an error.", http.StatusBadRequest)
		return
	}
	select {
	case c.result <- q:
	default: // a second answer (a reload): the first one counts
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if e := q.Get("error"); e != "" {
		fmt.Fprintf(w, "<!doctype html><title>Authorization failed</title><h1>Authorization failed</h1><p>%s</p><p>You can close this window.</p>\n", html.EscapeString(clean(e+" "+q.Get("error_description"), 300)))
		return
	}
	io.WriteString(w, "<!doctype html><title>Authorized</title><h1>Authorization complete</h1><p>You can close this window and return to the terminal.</p>\n")
}

// Close stops listening. It waits for the server goroutine to end.
func (c *loopbackCallback) Close() error {
	c.closeMu.Do(func() {
		c.mu.Lock()
		c.closed = true
		srv, served := c.srv, c.served
		c.mu.Unlock()
		if srv == nil {
			c.ln.Close()
			return
		}
		// Let the browser receive its page before the connection goes.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			srv.Close()
		}
		<-served
		c.ln.Close() // in case Serve never got to take it over
	})
	return nil
}
