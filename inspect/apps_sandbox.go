package inspect

import (
	_ "embed"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"
)

// sandboxScript is the sandbox proxy's code; Sandbox serves it inline in
// each view's sandbox page (so that every request there needs a view id).
//
//go:embed sandbox/sandbox.js
var sandboxScript string

// Sandbox is the handler of the second origin, where each MCP App view's
// sandbox proxy lives. It must listen on another port than the page (a
// different origin), whose address is Options.SandboxOrigin.
//
// Why it is safe: the second origin holds no secret and no API. Its one
// page, /sandbox.html?view=ID, exists only for a view the page registered
// through its own guarded API, and ID is a random 256-bit value that only
// that page learns; any other request is refused. Cookies are not
// port-scoped, but the page's token cookie is scoped to the page's random
// path (see guard), which this origin never serves, so no request here
// carries it; this origin sets none. The Host header must name this
// machine and this port, as on the page's port (DNS rebinding). The
// sandbox page may be framed only by the page's origin (frame-ancestors),
// carries the view's CSP as a header (which the view's srcdoc frame
// inherits and cannot loosen), and runs the view in a frame without
// allow-same-origin, so the view's origin is opaque: it reaches neither
// this origin's DOM nor the page's.
func (s *Server) Sandbox() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if msg := s.guard.hostError(r); msg != "" {
			http.Error(w, msg, http.StatusForbidden)
			return
		}
		if r.Method != http.MethodGet || r.URL.Path != "/sandbox.html" {
			http.NotFound(w, r)
			return
		}
		v := s.apps.get(r.URL.Query().Get("view"))
		if v == nil {
			http.Error(w, "unauthorized: no such view", http.StatusUnauthorized)
			return
		}
		h.Set("Content-Security-Policy", v.Policy.CSP+"; frame-ancestors "+v.Host)
		h.Set("Content-Type", "text/html; charset=utf-8")
		var b strings.Builder
		b.WriteString(`<!doctype html><html data-host="`)
		b.WriteString(html.EscapeString(v.Host))
		b.WriteString(`"><head><meta charset="utf-8"><title>MCP App sandbox</title>` +
			`<style>html,body{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block}</style>` +
			`</head><body><script>`)
		b.WriteString(sandboxScript)
		b.WriteString(`</script></body></html>`)
		_, _ = w.Write([]byte(b.String()))
	})
}

// checkSandboxOrigin accepts "" or http://HOST:PORT and nothing more: the
// origin goes into the page's CSP.
func checkSandboxOrigin(o string) error {
	if o == "" {
		return nil
	}
	u, err := url.Parse(o)
	if err != nil || u.Scheme != "http" || u.Host == "" || u.Port() == "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" ||
		strings.ContainsAny(u.Host, " ;,'\"") {
		return fmt.Errorf("inspect: Options.SandboxOrigin must be http://HOST:PORT, not %q", clipText(o, 100))
	}
	return nil
}
