package inspect

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
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
// the Host check (DNS rebinding, and pages of other local servers), the
// page's path, the token (query on the first visit, then a cookie), and
// the Origin check for anything that changes state or streams events.
//
// The page lives under a random path, base, and so does its cookie. A
// browser keeps cookies per host, not per port: a cookie of
// 127.0.0.1:PORT is also sent to 127.0.0.1:3000, a dev server the user
// visits, or any other local web server, which would then hold the token.
// Its Path is the one attribute that narrows where a browser sends it on
// plain http (Secure and the __Host- prefix need https; a name with the
// port in it is still sent everywhere), so the cookie goes only to
// requests under base, a path no other server is ever asked for: it is
// random per run and only the printed URL tells it (the guard answers
// every other path with the same 404, before any token, and the page
// sends no Referer).
type guard struct {
	token  string
	cookie string // the cookie's name, unique per token
	base   string // "/s/" and a random segment; the page is base+"/"
	hosts  map[string]bool
	next   http.Handler // sees paths with base cut off
}

func newGuard(token string, extraHosts []string, next http.Handler) *guard {
	sum := sha256.Sum256([]byte(token))
	g := &guard{token: token, cookie: "mcpwire_inspect_" + hex.EncodeToString(sum[:6]), base: "/s/" + randomSegment(), hosts: map[string]bool{}}
	g.next = http.StripPrefix(g.base, next)
	for _, h := range extraHosts {
		g.hosts[origin.CanonicalHost(h)] = true
	}
	return g
}

// randomSegment is a path segment nobody can guess (128 bits).
func randomSegment() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand documents it)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hostError says why r's Host header is refused ("" if it is not). It
// must name this machine (or the address given with --listen) and the
// port r came in on: every local web server is this machine too, and a
// page of one (127.0.0.1:3000) must not reach this one by naming it.
func (g *guard) hostError(r *http.Request) string {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = strings.Trim(r.Host, "[]"), "80" // a browser leaves out :80 alone
	}
	if host == "" || !(origin.IsLoopbackHost(host) || g.hosts[origin.CanonicalHost(host)]) {
		return "forbidden: the Host header does not name this machine"
	}
	// The port listened on is the connection's own; without one (a
	// handler called outside an http.Server) nothing can match it.
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if local == nil {
		return "forbidden: the Host header's port cannot be checked: no listening address"
	}
	if _, want, err := net.SplitHostPort(local.String()); err != nil || port != want {
		// A tunnel (ssh -L) must keep the port's number; say which.
		return "forbidden: the Host header does not name the port this server listens on (" + want + "); a forwarded port must keep that number"
	}
	return ""
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
	if msg := g.hostError(r); msg != "" {
		http.Error(w, msg, http.StatusForbidden)
		return
	}
	// Outside base: the same answer for every path and every visitor,
	// so that nothing here tells where the page is.
	path, ok := strings.CutPrefix(r.URL.Path, g.base)
	if !ok || !strings.HasPrefix(path, "/") {
		http.Error(w, "not found: open the URL mcpwire inspect printed", http.StatusNotFound)
		return
	}
	if !g.tokenOK(r) {
		// The first visit brings the token in the query; it becomes an
		// HttpOnly cookie and the address bar loses it.
		q := r.URL.Query().Get("token")
		if r.Method == http.MethodGet && path == "/" && q != "" &&
			subtle.ConstantTimeCompare([]byte(q), []byte(g.token)) == 1 {
			http.SetCookie(w, &http.Cookie{Name: g.cookie, Value: g.token, Path: g.base + "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
			if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
				welcome(w, g.base+"/")
				return
			}
			http.Redirect(w, r, g.base+"/", http.StatusSeeOther)
			return
		}
		http.Error(w, "unauthorized: open the URL mcpwire inspect printed (it carries the token)", http.StatusUnauthorized)
		return
	}
	stateChanging := r.Method != http.MethodGet && r.Method != http.MethodHead
	if (stateChanging || path == "/api/events") && !g.sameOrigin(r, stateChanging) {
		http.Error(w, "forbidden: cross-origin request", http.StatusForbidden)
		return
	}
	g.next.ServeHTTP(w, r)
}

// welcomePage leads a first visit from another site (the file:// page
// mcpwire opens the browser on) on to the page (%[1]s) with a meta
// refresh. A redirect would not do there: a browser sends a
// SameSite=Strict cookie along a redirect only when the whole chain is
// same-site, while a navigation this page starts is. A visit typed or
// pasted into the address bar (Sec-Fetch-Site: none) gets the redirect.
const welcomePage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=%[1]s"><title>mcpwire inspect</title></head>
<body><p><a href="%[1]s">Open the inspector</a></p></body></html>
`

// welcome answers the first visit with welcomePage leading to page.
func welcome(w http.ResponseWriter, page string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	_, _ = fmt.Fprintf(w, welcomePage, html.EscapeString(page))
}
