package inspect

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/transport"
)

// SignIn signs in to the server named server as "mcpwire login" does (the
// auth package's authorization code flow with PKCE and a loopback
// redirect listener) and keeps the tokens where the server's next
// connection finds them. open is called once with the authorization URL,
// when the listener is up; SignIn returns when the redirect came and the
// tokens are stored (nil), or the sign-in failed or ctx ended.
type SignIn func(ctx context.Context, server string, open func(authURL string)) error

// signInTimeout bounds a sign-in: a person who never comes back leaves no
// listener behind for longer than this.
const signInTimeout = 10 * time.Minute

// signInView is a server's sign-in as the page shows it.
type signInView struct {
	// State is "waiting" (the authorization URL is out, the redirect not
	// yet back), "signed-in" or "failed".
	State string `json:"state"`
	// URL is the authorization URL while waiting, Site its scheme and
	// host, set apart so the person sees where it leads.
	URL   string `json:"url,omitempty"`
	Site  string `json:"site,omitempty"`
	Error string `json:"error,omitempty"`
}

// signIns are the page's sign-ins, one per server at a time.
type signIns struct {
	mu    sync.Mutex
	views map[string]*signInView
	// current is each server's sign-in in flight: a retry ends it and
	// takes its place.
	current map[string]*flight
}

// flight is one sign-in attempt; its address tells it from a retry's.
type flight struct {
	stop context.CancelFunc
	// ended is closed when the attempt has returned, its loopback
	// listener closed: a retry waits for it, so the abandoned attempt's
	// redirect can no longer be answered as if it had signed someone in.
	ended chan struct{}
}

func newSignIns() *signIns {
	return &signIns{views: map[string]*signInView{}, current: map[string]*flight{}}
}

// begin makes f the server's current sign-in, ending the one before, and
// returns a channel closed once that one has ended (nil if there was none).
func (s *signIns) begin(server string, f *flight) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.current[server]
	s.current[server] = f
	if prev == nil {
		return nil
	}
	prev.stop() // a retry: the earlier listener goes
	return prev.ended
}

// isCurrent reports whether no retry has taken over from f.
func (s *signIns) isCurrent(server string, f *flight) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current[server] == f
}

func (s *signIns) view(server string) *signInView {
	s.mu.Lock()
	defer s.mu.Unlock()
	if v := s.views[server]; v != nil {
		c := *v
		return &c
	}
	return nil
}

func (s *signIns) set(server string, v *signInView) {
	s.mu.Lock()
	s.views[server] = v
	s.mu.Unlock()
}

// NeedsSignIn reports whether err means the server wants a sign-in: an
// authorization challenge nobody could answer (no stored token, a refresh
// that failed, a headless authorizer) or a bare 401 with a Bearer
// challenge.
func NeedsSignIn(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, auth.ErrInteractionRequired) {
		return true
	}
	var ae *transport.AuthorizationError
	if errors.As(err, &ae) && ae.StatusCode == http.StatusUnauthorized {
		return true
	}
	var he *transport.HTTPError
	return errors.As(err, &he) && he.StatusCode == http.StatusUnauthorized &&
		strings.HasPrefix(strings.ToLower(strings.TrimSpace(he.WWWAuthenticate)), "bearer")
}

// site is the scheme and host of an authorization URL, for the page to
// show apart from the rest of it.
func site(authURL string) string {
	u, err := url.Parse(authURL)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "" // never a link the page would follow (javascript:, data:)
	}
	return u.Scheme + "://" + u.Host
}

// handleSignIn starts a sign-in for a server (ending one in progress, so
// that a person can retry an abandoned one) and answers with the
// authorization URL, which the page opens. What follows (the redirect,
// the tokens, the reconnect) reaches the page as "servers" events.
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Server string `json:"server"`
	}
	if err := decodeBody(r, &in); err != nil {
		s.fail(w, err)
		return
	}
	if in.Server == "" {
		s.fail(w, errNoServerNamed)
		return
	}
	var st *ServerState
	for _, each := range s.opts.Servers.List() {
		if each.Name == in.Server {
			st = &each
		}
	}
	if st == nil {
		s.fail(w, fmt.Errorf("%w: %q", errNoServer, in.Server))
		return
	}
	if st.Transport == "stdio" {
		s.fail(w, badRequest("%q runs over stdio; only remote (http) servers sign in", in.Server))
		return
	}
	if s.opts.SignIn == nil {
		s.writeError(w, http.StatusNotImplemented, fmt.Errorf("this inspector offers no sign-in to %q from the page", in.Server))
		return
	}
	opened := make(chan string, 1)
	failed := make(chan error, 1)
	ctx, cancel := context.WithTimeout(s.ctx, signInTimeout)
	mine := &flight{stop: cancel, ended: make(chan struct{})}
	if prev := s.signIns.begin(in.Server, mine); prev != nil {
		select {
		case <-prev:
		case <-r.Context().Done():
			cancel()
			close(mine.ended)
			return
		}
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(mine.ended)
		defer cancel()
		// Buffered: nil too, for a grant that needed no page.
		failed <- s.signIn(ctx, in.Server, mine, opened)
	}()
	select {
	case u := <-opened:
		writeJSON(w, http.StatusOK, map[string]string{"url": u, "site": site(u)})
	case err := <-failed:
		if err != nil {
			s.fail(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{}) // signed in with no page to open
	case <-r.Context().Done():
	}
}

// signIn runs one sign-in and reconnects the server after it. Its states
// are kept for the server card unless a retry took over meanwhile.
func (s *Server) signIn(ctx context.Context, server string, mine *flight, opened chan<- string) error {
	show := func(v *signInView) {
		if s.signIns.isCurrent(server, mine) {
			s.signIns.set(server, v)
			s.hub.publish(event{kind: "servers"})
		}
	}
	var badURL bool
	err := s.opts.SignIn(ctx, server, func(authURL string) {
		if site(authURL) == "" {
			badURL = true
			mine.stop()
			return
		}
		show(&signInView{State: "waiting", URL: authURL, Site: site(authURL)})
		select {
		case opened <- authURL:
		default:
		}
	})
	if err == nil {
		// The tokens are stored: the server connects again with them.
		if rc, ok := s.opts.Servers.(Reconnecter); ok {
			rctx, cancel := context.WithTimeout(s.ctx, requestTimeout)
			err = rc.Reconnect(rctx, server)
			cancel()
			if err != nil {
				err = fmt.Errorf("signed in, but connecting again failed: %w", err)
			}
		}
	}
	if err != nil {
		if badURL {
			err = errors.New("the authorization server's sign-in address is not an http(s) URL; refusing to open it")
		} else if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			err = fmt.Errorf("the sign-in was not completed within %s; sign in again", signInTimeout)
		} else if errors.Is(err, context.Canceled) && s.ctx.Err() == nil {
			err = errors.New("the sign-in was abandoned for a new one")
		}
		show(&signInView{State: "failed", Error: s.opts.Redact(err.Error())})
		return err
	}
	show(&signInView{State: "signed-in"})
	return nil
}
