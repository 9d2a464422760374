package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/internal/oauthtest"
	"github.com/mcpwire/mcpwire/internal/sse"
	"github.com/mcpwire/mcpwire/manager"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/transport"
)

// oauthWorld is a configured server behind the test authorization
// server, a manager that dials it with stored tokens only (as the CLI's
// configured servers do), and the sign-in the CLI gives the page: the
// auth package's Login through a loopback listener whose URL goes to the
// page instead of a browser, into the same store.
type oauthWorld struct {
	as     *oauthtest.Server
	m      *manager.Manager
	signIn SignIn
}

func newOAuthWorld(t *testing.T) *oauthWorld {
	t.Helper()
	h := mcptest.NewDefault(nil).StreamableHTTPHandler(nil)
	as := oauthtest.Start(h)
	t.Cleanup(func() { as.Close(); h.Close() })
	store := &auth.MemoryStore{}
	dial := manager.DialWith("", nil)
	set := &config.Set{Servers: []*config.Server{{Name: "secure", Type: config.TypeHTTP, URL: as.URL, Enabled: true}}}
	m := manager.New(set, &manager.Options{DisableCache: true, Dial: func(ctx context.Context, s *config.Server) (transport.Transport, error) {
		tr, err := dial(ctx, s)
		if err != nil {
			return nil, err
		}
		a, err := auth.New(s.URL, &auth.Options{Store: store}) // headless: stored tokens only
		if err != nil {
			return nil, err
		}
		tr.(*transport.StreamableHTTP).Auth = a
		return tr, nil
	}})
	t.Cleanup(func() { m.Close() })
	signIn := func(ctx context.Context, server string, open func(string)) error {
		a, err := auth.New(as.URL, &auth.Options{Store: store, UserAgent: &auth.Loopback{Out: io.Discard,
			OpenURL: func(_ context.Context, u string) error { open(u); return nil }}})
		if err != nil {
			return err
		}
		return a.Login(ctx)
	}
	return &oauthWorld{as: as, m: m, signIn: signIn}
}

// servers reads the page's server list.
func (p *page) servers(t *testing.T) []serverView {
	t.Helper()
	resp := p.do(t, http.MethodGet, "/api/servers", "", nil)
	var out []serverView
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// waitServer reads events until the server list satisfies ok, and
// returns it (the raw JSON too, to look for secrets).
func (p *page) waitServer(t *testing.T, next func() sse.Event, ok func(serverView) bool) serverView {
	t.Helper()
	for {
		for _, v := range p.servers(t) {
			if ok(v) {
				return v
			}
		}
		for next().Type != "servers" {
		}
	}
}

// startSignIn presses "Sign in" and returns the authorization URL.
func (p *page) startSignIn(t *testing.T, server string) (string, string) {
	t.Helper()
	resp := p.do(t, http.MethodPost, "/api/signin", `{"server":"`+server+`"}`, nil)
	var out struct{ URL, Site, Error string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK || out.URL == "" {
		t.Fatalf("sign in: %s %+v %v", resp.Status, out, err)
	}
	return out.URL, out.Site
}

// follow visits the authorization URL as the browser would, through the
// authorization server's redirect to the loopback listener.
func follow(t *testing.T, authURL string) string {
	t.Helper()
	resp, err := http.Get(authURL)
	if err != nil {
		t.Fatalf("following the authorization URL: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// A configured server that wants OAuth shows as needing a sign-in; the
// page's sign-in gives the authorization URL (its site apart), a retry
// replaces an abandoned one, a refused authorization shows as failed and
// can be tried again, and a completed one stores the tokens, reconnects
// the server through the manager and lists its tools. No token reaches
// the page or its events.
func TestSignInFromThePage(t *testing.T) {
	w := newOAuthWorld(t)
	if err := w.m.Connect(t.Context(), "secure"); err == nil {
		t.Fatal("connected without a token")
	}
	p := openPage(t, Options{Servers: ManagerServers(w.m, "", nil), SignIn: w.signIn})
	next := p.events(t)
	if v := p.servers(t)[0]; !v.NeedsSignIn || v.State != string(manager.StateFailed) {
		t.Fatalf("before signing in: %+v, want failed and needing a sign-in", v)
	}

	abandoned, site := p.startSignIn(t, "secure")
	if site != w.as.Issuer || !strings.HasPrefix(abandoned, w.as.Issuer+"/authorize?") {
		t.Errorf("authorization URL %q on site %q, want one at %s", abandoned, site, w.as.Issuer)
	}
	if v := p.servers(t)[0]; v.SignIn == nil || v.SignIn.State != "waiting" || v.SignIn.URL != abandoned {
		t.Errorf("while waiting: %+v", v.SignIn)
	}

	denied, _ := p.startSignIn(t, "secure") // the first is abandoned
	if denied == abandoned {
		t.Error("a retry gave the same authorization URL")
	}
	// The abandoned flight's listener is gone (or, if the new one got its
	// port, refuses the old state): its redirect signs nobody in.
	if resp, err := http.Get(abandoned); err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Errorf("the abandoned sign-in's redirect was taken: %s", b)
		}
	}
	if v := p.servers(t)[0]; v.SignIn == nil || v.SignIn.URL != denied {
		t.Errorf("after a retry the card shows %+v, want the new URL", v.SignIn)
	}
	w.as.DenyNext(1)
	follow(t, denied)
	v := p.waitServer(t, next, func(v serverView) bool { return v.SignIn != nil && v.SignIn.State == "failed" })
	if !strings.Contains(v.SignIn.Error, "access_denied") || !v.NeedsSignIn {
		t.Errorf("a refused authorization shows %+v, needs sign-in %v", v.SignIn, v.NeedsSignIn)
	}

	granted, _ := p.startSignIn(t, "secure")
	if page := follow(t, granted); !strings.Contains(page, "Authorization complete") {
		t.Errorf("the redirect's page: %q", page)
	}
	v = p.waitServer(t, next, func(v serverView) bool { return v.State == string(manager.StateConnected) })
	if v.NeedsSignIn || v.SignIn == nil || v.SignIn.State != "signed-in" {
		t.Errorf("after signing in: %+v %+v", v.ServerState, v.SignIn)
	}
	if n := len(w.as.Tokens()); n != 1 {
		t.Errorf("%d tokens issued, want 1 (the abandoned sign-in's code is never traded)", n)
	}
	resp := p.do(t, http.MethodGet, "/api/tools?server=secure", "", nil)
	tools, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(tools), `"add"`) {
		t.Errorf("tools after signing in: %s %s", resp.Status, tools)
	}
	shown, _ := json.Marshal(p.servers(t))
	for _, tok := range w.as.Tokens() {
		if strings.Contains(string(shown), tok) {
			t.Errorf("the server list shows the access token: %s", shown)
		}
	}
}

// The sign-in endpoint is guarded as every state-changing one (token,
// Host, Origin), names only known servers, and says so when the page
// cannot sign in.
func TestSignInRefusals(t *testing.T) {
	w := newOAuthWorld(t)
	p := openPage(t, Options{Servers: ManagerServers(w.m, "", nil), SignIn: w.signIn})
	for _, c := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"foreign Origin", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"foreign Host", map[string]string{"Host": "evil.example"}, http.StatusForbidden},
	} {
		if resp := p.do(t, http.MethodPost, "/api/signin", `{"server":"secure"}`, c.header); resp.StatusCode != c.want {
			t.Errorf("%s: %s, want %d", c.name, resp.Status, c.want)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, p.base+"/api/signin", strings.NewReader(`{"server":"secure"}`))
	req.Header.Set("Origin", p.ts.URL)
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if resp := p.do(t, http.MethodPost, "/api/signin", `{"server":"nope"}`, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown server: %s", resp.Status)
	}
	if w.as.SignIns() != 0 {
		t.Error("a refused request signed in")
	}

	q := openPage(t, Options{Servers: ManagerServers(w.m, "", nil)})
	if err := w.m.Connect(t.Context(), "secure"); err == nil || !NeedsSignIn(err) {
		t.Fatalf("connect without a token: %v, want one that needs a sign-in", err)
	}
	if v := q.servers(t)[0]; v.NeedsSignIn {
		t.Error("a page that cannot sign in offers it")
	}
	if resp := q.do(t, http.MethodPost, "/api/signin", `{"server":"secure"}`, nil); resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("sign-in without SignIn: %s", resp.Status)
	}
	if !NeedsSignIn(&transport.HTTPError{StatusCode: 401, WWWAuthenticate: `Bearer realm="x"`}) || NeedsSignIn(&transport.HTTPError{StatusCode: 401, WWWAuthenticate: "Basic"}) || NeedsSignIn(errors.New("401")) {
		t.Error("needsSignIn misreads errors")
	}
}

// An authorization server whose sign-in address is not http(s) (a
// javascript: URL, say) gets no link on the page: the sign-in ends with
// a clear error and the address is never shown.
func TestSignInRefusesANonHTTPAddress(t *testing.T) {
	w := newOAuthWorld(t)
	const evil = "javascript:alert(document.cookie)"
	p := openPage(t, Options{Servers: ManagerServers(w.m, "", nil), SignIn: func(ctx context.Context, _ string, open func(string)) error {
		open(evil)
		<-ctx.Done() // as a listener waiting for a redirect that never comes
		return ctx.Err()
	}})
	resp := p.do(t, http.MethodPost, "/api/signin", `{"server":"secure"}`, nil)
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(b), "not an http(s) URL") || strings.Contains(string(b), evil) {
		t.Errorf("sign-in with a javascript: address: %s %s", resp.Status, b)
	}
	shown, _ := json.Marshal(p.servers(t))
	if strings.Contains(string(shown), "javascript:") || !strings.Contains(string(shown), `"state":"failed"`) {
		t.Errorf("the server list after it: %s", shown)
	}
}
