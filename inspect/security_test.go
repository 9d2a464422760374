package inspect

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
)

// Every request needs the token; the first visit turns it into an
// HttpOnly, SameSite=Strict cookie scoped to the page's path and drops it
// from the address bar. Outside that path every request gets the same
// 404, token or not, so nothing tells where the page is.
func TestTokenRequired(t *testing.T) {
	p := newPage(t)
	if path := p.srv.Path(); !strings.HasPrefix(path, "/s/") || !strings.HasSuffix(path, "/") || len(path) < len("/s//")+20 {
		t.Fatalf("the page's path %q: want /s/RANDOM/", path)
	}
	other, err := New(Options{Servers: p.srv.opts.Servers, Token: p.token})
	if err != nil {
		t.Fatal(err)
	}
	other.Close()
	if other.Path() == p.srv.Path() {
		t.Errorf("two inspectors share the path %s", other.Path())
	}
	for _, path := range []string{"/", "/app.js", "/api/servers", "/api/events", "/api/wire.jsonl", "/?token=wrong" + p.token} {
		resp, err := http.Get(p.base + path) // no cookie
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s without the token: %s, want 401", path, resp.Status)
		}
	}
	for _, path := range []string{"/", "/?token=" + p.token, "/app.js", "/api/servers", "/s/", strings.TrimSuffix(p.srv.Path(), "/"), strings.TrimSuffix(p.srv.Path(), "/") + "x/"} {
		resp, err := p.client.Get(p.ts.URL + path) // the cookie, were it sent
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound || strings.Contains(string(b), p.srv.Path()) {
			t.Errorf("GET %s outside the page's path: %s %s, want 404", path, resp.Status, b)
		}
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noRedirect.Get(p.base + "/?token=" + p.token)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != p.srv.Path() {
		t.Fatalf("first visit: %s to %q, want 303 to %s", resp.Status, resp.Header.Get("Location"), p.srv.Path())
	}
	// From another site (the file:// page inspect opens), a page that
	// leads on to the page, not a redirect: the cookie must go with the
	// next request.
	req, _ := http.NewRequest(http.MethodGet, p.base+"/?token="+p.token, nil)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	cross, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	welcome, _ := io.ReadAll(cross.Body)
	cross.Body.Close()
	if cross.StatusCode != http.StatusOK || !strings.Contains(string(welcome), `<meta http-equiv="refresh" content="0;url=`+p.srv.Path()+`">`) || len(cross.Cookies()) != 1 {
		t.Fatalf("first visit from another site: %s %s, want the cookie and a page that leads to %s", cross.Status, welcome, p.srv.Path())
	}
	for _, cookies := range [][]*http.Cookie{resp.Cookies(), cross.Cookies()} {
		if len(cookies) != 1 || cookies[0].Value != p.token || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode || cookies[0].Path != p.srv.Path() {
			t.Fatalf("cookie: %+v, want the token, HttpOnly, SameSite=Strict, Path=%s", cookies, p.srv.Path())
		}
	}
}

// A Host that is not this machine is refused even with the token: a DNS
// rebinding page would send its own name.
func TestForeignHostRefused(t *testing.T) {
	p := newPage(t)
	for _, host := range []string{"evil.example", "evil.example:80", "127.0.0.1.evil.example", "192.0.2.1"} {
		resp := p.do(t, http.MethodGet, "/api/servers", "", map[string]string{"Host": host})
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host %s: %s, want 403", host, resp.Status)
		}
	}
	_, port, _ := net.SplitHostPort(p.ts.Listener.Addr().String())
	other := otherPort(port)
	// Another port is another web server on this machine (a dev server
	// the user visits): a page there must not drive this one either.
	for _, host := range []string{"localhost", "127.0.0.1", "localhost:" + other, "127.0.0.1:" + other, "[::1]:" + other, "127.0.0.1:" + port + "0"} {
		resp := p.do(t, http.MethodGet, "/api/servers", "", map[string]string{"Host": host})
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "port") {
			t.Errorf("Host %s: %s %s, want 403 naming the port", host, resp.Status, b)
		}
	}
	for _, host := range []string{"localhost:" + port, "LocalHost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "app.localhost:" + port} {
		if resp := p.do(t, http.MethodGet, "/api/servers", "", map[string]string{"Host": host}); resp.StatusCode != http.StatusOK {
			t.Errorf("Host %s: %s, want 200", host, resp.Status)
		}
	}
}

// The page served outside an http.Server cannot tell the port it listens
// on, so it refuses rather than accept any.
func TestHostPortUnknownRefused(t *testing.T) {
	p := newPage(t)
	req := httptest.NewRequest(http.MethodGet, p.base+"/api/servers", nil)
	for _, c := range p.client.Jar.Cookies(req.URL) {
		req.AddCookie(c)
	}
	w := httptest.NewRecorder()
	p.srv.ServeHTTP(w, req)
	if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "no listening address") {
		t.Errorf("without a listening address: %d %s, want 403", w.Code, w.Body)
	}
}

// otherPort is a port number other than port.
func otherPort(port string) string {
	if port == "3000" {
		return "3001"
	}
	return "3000"
}

// The token cookie goes to this page only: a browser sends a cookie to
// every port of a host, so without a narrower Path another web server on
// this machine (a dev server on 127.0.0.1:3000) would receive the token
// whenever the user visits it. The Go jar, like a browser, ignores ports.
func TestTokenCookieNotSentToOtherLocalServers(t *testing.T) {
	p := newPage(t)
	var leaked []string
	var mu sync.Mutex
	dev := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range r.Cookies() {
			leaked = append(leaked, r.URL.Path+": "+c.Name)
		}
	}))
	defer dev.Close()
	for _, path := range []string{"/", "/api/servers", "/s/", "/index.html", "/app.js"} {
		resp, err := p.client.Get(dev.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) != 0 {
		t.Errorf("another local server received the inspector's cookie: %q", leaked)
	}
	if resp := p.do(t, http.MethodGet, "/api/servers", "", nil); resp.StatusCode != http.StatusOK {
		t.Errorf("the page itself: %s", resp.Status)
	}
}

// State-changing requests and the event stream must come from the page's
// own origin; no response carries CORS headers.
func TestCrossOriginRefused(t *testing.T) {
	p := newPage(t)
	call := `{"server":"demo","tool":"echo","arguments":{"message":"hi"}}`
	cases := []struct {
		method, path string
		header       map[string]string
	}{
		{http.MethodPost, "/api/call", map[string]string{"Origin": "http://evil.example"}},
		{http.MethodPost, "/api/call", map[string]string{"Origin": ""}},
		{http.MethodPost, "/api/call", map[string]string{"Origin": "null"}},
		{http.MethodGet, "/api/events", map[string]string{"Origin": "http://evil.example"}},
		{http.MethodGet, "/api/events", map[string]string{"Sec-Fetch-Site": "cross-site"}},
		{http.MethodOptions, "/api/call", map[string]string{"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}},
	}
	for _, c := range cases {
		resp := p.do(t, c.method, c.path, call, c.header)
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s %s %v: %s, want 403", c.method, c.path, c.header, resp.Status)
		}
		if v := resp.Header.Get("Access-Control-Allow-Origin"); v != "" {
			t.Errorf("%s %s: Access-Control-Allow-Origin %q", c.method, c.path, v)
		}
	}
	if resp := p.do(t, http.MethodPost, "/api/call", call, nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("same-origin POST: %s", resp.Status)
	}
}

// The page never carries the token: it lives only in the HttpOnly cookie.
func TestPageHasNoToken(t *testing.T) {
	p := newPage(t)
	for _, path := range []string{"/", "/app.js", "/dom.js", "/form.js", "/render.js", "/app.css", "/api/servers"} {
		resp := p.do(t, http.MethodGet, path, "", nil)
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || strings.Contains(string(b), p.token) {
			t.Errorf("GET %s: %s; token in body: %v", path, resp.Status, strings.Contains(string(b), p.token))
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
	}
}

// With --listen, the Host may also name the listen address; nothing else
// is added.
func TestListenHostAllowed(t *testing.T) {
	p := newPageWith(t, Options{Hosts: []string{"192.0.2.7"}})
	_, port, _ := net.SplitHostPort(p.ts.Listener.Addr().String())
	if resp := p.do(t, http.MethodGet, "/api/servers", "", map[string]string{"Host": "192.0.2.7:" + port}); resp.StatusCode != http.StatusOK {
		t.Errorf("the --listen host: %s", resp.Status)
	}
	for _, host := range []string{"192.0.2.8:" + port, "192.0.2.7:" + otherPort(port)} {
		if resp := p.do(t, http.MethodGet, "/api/servers", "", map[string]string{"Host": host}); resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host %s: %s, want 403", host, resp.Status)
		}
	}
}

// Errors and stderr tails shown on the page go through Redact.
func TestServersViewRedacted(t *testing.T) {
	const secret = "tok-0123456789"
	p := newPageWith(t, Options{Redact: func(s string) string { return strings.ReplaceAll(s, secret, "***") }}, secret)
	resp := p.do(t, http.MethodGet, "/api/servers", "", nil)
	b, _ := io.ReadAll(resp.Body)
	if strings.Contains(string(b), secret) || !strings.Contains(string(b), `"stderr":"the server said: ***"`) {
		t.Fatalf("servers view: %s", b)
	}
}

// A server's replies reach the page with the secrets Redact knows masked,
// as the wire log has them: a tool result, its progress, a prompt.
func TestRepliesRedacted(t *testing.T) {
	const secret = "tok-0123456789"
	p := newPageWith(t, Options{Redact: func(s string) string { return strings.ReplaceAll(s, secret, "***") }}, secret)
	next := p.events(t)
	call := postJSON[struct{ ID int64 }](t, p, "/api/call", `{"server":"demo","tool":"echo","arguments":{"message":"`+secret+`"}}`)
	rec, _ := waitCall(t, next, call.ID, nil)
	if res := resultOf(t, rec); res == nil || len(res.Content) == 0 || res.Content[0].Text != "***" {
		t.Errorf("the call's result on the page: %s", rec.Result)
	}
	resp := p.do(t, http.MethodPost, "/api/prompt?server=demo", `{"name":"summarize","arguments":{"topic":"`+secret+`"}}`, nil)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || strings.Contains(string(b), secret) || !strings.Contains(string(b), "***") {
		t.Errorf("the prompt on the page: %s %s", resp.Status, b)
	}
}

// The report, an MCP App view and what a view's calls and reads answer
// are the servers' words too: Redact masks them, even where the wire log
// (here without secrets) has the secret as it came; so is what a view
// sends, which the timeline shows.
func TestReportAndViewsRedacted(t *testing.T) {
	const secret = "tok-0123456789"
	srv := mcptest.NewDefault(nil)
	srv.AddTool(mcptest.Tool{Name: "named-" + secret}, func(context.Context, *mcptest.ToolRequest) (*mcptest.ToolResult, error) {
		return mcptest.TextResult("the token is " + secret), nil
	})
	srv.AddResource(mcptest.Resource{URI: "ui://demo/view.html", Name: "view", MIMEType: appMIMEType, Text: "<p>" + secret + "</p>"})
	p := newPageOn(t, srv, Options{SandboxOrigin: "http://127.0.0.1:1", Redact: func(s string) string { return strings.ReplaceAll(s, secret, "***") }})
	get := p.do(t, http.MethodGet, "/api/report?server=demo", "", nil)
	report, _ := io.ReadAll(get.Body)
	_, view := postStatus(t, p, "/api/apps/view", `{"server":"demo","uri":"ui://demo/view.html"}`)
	var v struct{ ID string }
	_ = json.Unmarshal([]byte(view), &v)
	_, call := postStatus(t, p, "/api/apps/call", `{"view":"`+v.ID+`","name":"named-`+secret+`"}`)
	_, read := postStatus(t, p, "/api/apps/read", `{"view":"`+v.ID+`","uri":"ui://demo/view.html"}`)
	// What the view sends goes on the timeline masked too.
	postStatus(t, p, "/api/apps/log", `{"view":"`+v.ID+`","direction":"receive","message":{"said":"`+secret+`"}}`)
	entries := p.wire.Entries()
	logged := string(entries[len(entries)-1].Message)
	for what, b := range map[string]string{"report": string(report), "view": view, "view's call": call, "view's read": read, "view's message": logged} {
		if strings.Contains(b, secret) || !strings.Contains(b, "***") {
			t.Errorf("the %s: %s", what, b)
		}
	}
}

// An address among the Hosts matches however the Host header writes it
// (upper case, zeros, an IPv6 zone, an IPv4-mapped form); a name matches
// in any case.
func TestListenHostSpellings(t *testing.T) {
	p := newPageWith(t, Options{Hosts: []string{"fe80::1", "192.0.2.7", "MyHost"}})
	_, port, _ := net.SplitHostPort(p.ts.Listener.Addr().String())
	for _, host := range []string{"[FE80:0::1]", "[fe80::1%25eth0]", "[::ffff:192.0.2.7]", "myhost", "MYHOST"} {
		if resp := p.do(t, http.MethodGet, "/api/servers", "", map[string]string{"Host": host + ":" + port}); resp.StatusCode != http.StatusOK {
			t.Errorf("Host %s: %s, want 200", host, resp.Status)
		}
	}
	for _, host := range []string{"[fe80::2]", "myhost.example", "[::ffff:192.0.2.8]"} {
		if resp := p.do(t, http.MethodGet, "/api/servers", "", map[string]string{"Host": host + ":" + port}); resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host %s: %s, want 403", host, resp.Status)
		}
	}
}
