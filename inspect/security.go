package inspect

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpwire/mcpwire/internal/origin"
)

// NewToken returns a fresh random token for a session (256 bits).
func NewToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand documents it)
	return base64.RawURLEncoding.EncodeToString(b)
}

// guard is the security wrapper every request passes through, in order:
// the Host check (DNS rebinding), the token (query on the first visit,
// then a cookie), and the Origin check for anything that changes state
// or streams events.
type guard struct {
	token  string
	cookie string // the cookie's name, unique per token
	hosts  map[string]bool
	next   http.Handler
}

func newGuard(token string, extraHosts []string, next http.Handler) *guard {
	sum := sha256.Sum256([]byte(token))
	g := &guard{token: token, cookie: "mcpwire_inspect_" + hex.EncodeToString(sum[:6]), hosts: map[string]bool{}, next: next}
	for _, h := range extraHosts {
		g.hosts[strings.ToLower(h)] = true
	}
	return g
}

// hostAllowed reports whether the Host header names this machine (or the
// address given with --listen).
func (g *guard) hostAllowed(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	}
	if host == "" {
		return false
	}
	return origin.IsLoopbackHost(host) || g.hosts[strings.ToLower(host)]
}

// sameOrigin reports whether the request's Origin is the page's own.
// A browser sends Origin on every POST; its absence on one is refused.
func (g *guard) sameOrigin(r *http.Request, required bool) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		// Fetch metadata, when sent, must still say same-origin.
		site := r.Header.Get("Sec-Fetch-Site")
		return !required && (site == "" || site == "same-origin" || site == "none")
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	return origin.Same(u, &url.URL{Scheme: "http", Host: r.Host})
}

func (g *guard) tokenOK(r *http.Request) bool {
	c, err := r.Cookie(g.cookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), []byte(g.token)) == 1
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	if !g.hostAllowed(r.Host) {
		http.Error(w, "forbidden: the Host header does not name this machine", http.StatusForbidden)
		return
	}
	if !g.tokenOK(r) {
		// The first visit brings the token in the query; it becomes an
		// HttpOnly cookie and the address bar loses it.
		q := r.URL.Query().Get("token")
		if r.Method == http.MethodGet && r.URL.Path == "/" && q != "" &&
			subtle.ConstantTimeCompare([]byte(q), []byte(g.token)) == 1 {
			http.SetCookie(w, &http.Cookie{Name: g.cookie, Value: g.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
				welcome(w)
				return
			}
			http.Redirect(w, r, "/", http.StatusSeeOther)
			return
		}
		http.Error(w, "unauthorized: open the URL mcpwire inspect printed (it carries the token)", http.StatusUnauthorized)
		return
	}
	stateChanging := r.Method != http.MethodGet && r.Method != http.MethodHead
	if (stateChanging || r.URL.Path == "/api/events") && !g.sameOrigin(r, stateChanging) {
		http.Error(w, "forbidden: cross-origin request", http.StatusForbidden)
		return
	}
	g.next.ServeHTTP(w, r)
}

// welcomePage leads a first visit from another site (the file:// page
// mcpwire opens the browser on) on to "/" with a meta refresh. A
// redirect would not do there: a browser sends a SameSite=Strict cookie
// along a redirect only when the whole chain is same-site, while a
// navigation this page starts is. A visit typed or pasted into the
// address bar (Sec-Fetch-Site: none) gets the redirect.
const welcomePage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>mcpwire inspect</title></head>
<body><p><a href="/">Open the inspector</a></p></body></html>
`

// welcome answers the first visit with welcomePage.
func welcome(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	_, _ = io.WriteString(w, welcomePage)
}
