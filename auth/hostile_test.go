package auth

// The hostile-server suite: each test plays a server or authorization
// server that lies, echoes or redirects to get at the user's credentials
// (all on loopback), and names the finding it guards against.

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

const storedToken = "at-STORED-0123456789abcdef"

// echoServer is an MCP endpoint that accepts any token and echoes the
// Authorization header it got back in its failures: a 500 page for
// tools/list, a JSON-RPC error message and data for tools/call.
func echoServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got := r.Header.Get("Authorization")
		switch {
		case strings.Contains(string(body), `"tools/list"`):
			http.Error(rw, "internal error; request headers: Authorization: "+got, http.StatusInternalServerError)
		default:
			rw.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(rw, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"bad token %s","data":{"seen":%q}}}`, got, got)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// storedAuthorizer is an Authorizer for serverURL whose store holds a
// valid token.
func storedAuthorizer(t *testing.T, serverURL string) *Authorizer {
	t.Helper()
	key, err := CanonicalResource(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	store := &MemoryStore{}
	store.Save(context.Background(), &Record{ServerURL: key, Issuer: "http://127.0.0.1:1", ClientID: "c",
		Token: &Token{AccessToken: storedToken, RefreshToken: "rt-STORED-0123456789", Expiry: time.Now().Add(time.Hour)}})
	a, err := New(serverURL, &Options{Store: store, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// sendOne writes one request on a Streamable HTTP stream with a as its
// Authorizer and returns the Write error or the error response's text.
func sendOne(t *testing.T, serverURL string, a *Authorizer, method string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := (&transport.StreamableHTTP{URL: serverURL, Auth: a, DisableListener: true}).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	req, _ := jsonrpc.NewRequest(jsonrpc.Int64ID(1), method, nil)
	if err := st.Write(ctx, req); err != nil {
		return err.Error()
	}
	m, err := st.Read(ctx)
	if err != nil {
		return err.Error()
	}
	r, ok := m.(*jsonrpc.Response)
	if !ok || r.Error == nil {
		t.Fatalf("want an error response, got %#v", m)
	}
	return r.Error.Error() + " " + string(r.Error.Data)
}

func TestHostileTokenEchoedInHTTP500(t *testing.T) {
	srv := echoServer(t)
	msg := sendOne(t, srv.URL+"/mcp", storedAuthorizer(t, srv.URL+"/mcp"), "tools/list")
	if !strings.Contains(msg, "500") || !strings.Contains(msg, "[redacted]") {
		t.Fatalf("error %q: want the 500 with the echoed header scrubbed", msg)
	}
	if strings.Contains(msg, storedToken) || strings.Contains(msg, "STORED") {
		t.Fatalf("the stored token leaks into the error: %s", msg)
	}
}

func TestHostileTokenEchoedInJSONRPCError(t *testing.T) {
	srv := echoServer(t)
	msg := sendOne(t, srv.URL+"/mcp", storedAuthorizer(t, srv.URL+"/mcp"), "tools/call")
	if !strings.Contains(msg, "bad token") || !strings.Contains(msg, "[redacted]") {
		t.Fatalf("error %q: want the server's message with the token scrubbed", msg)
	}
	if strings.Contains(msg, "STORED") {
		t.Fatalf("the stored token leaks into the error response: %s", msg)
	}
}

// TestHostileBasicCredentialsEchoedByTokenEndpoint: a token endpoint that
// quotes the client_secret_basic header (base64 of id:secret) back in its
// error_description must not get it printed.
func TestHostileBasicCredentialsEchoedByTokenEndpoint(t *testing.T) {
	w := newWorld(t)
	w.authMethods = []string{"client_secret_basic"}
	w.tokenHook = func(_ url.Values, r *http.Request) (int, string, bool) {
		h := r.Header.Get("Authorization")
		return http.StatusBadRequest, fmt.Sprintf(`{"error":"invalid_client","error_description":"bad %s / %s"}`, h, strings.TrimPrefix(h, "Basic ")), true
	}
	a := newAuth(t, w, &Options{ClientID: "my-app", ClientSecret: "cs-SECRET-42"})
	err := call(t, w, a, "tools/list")
	if err == nil || !strings.Contains(err.Error(), "invalid_client") {
		t.Fatalf("call = %v, want the token endpoint's invalid_client", err)
	}
	basic := base64.StdEncoding.EncodeToString([]byte("my-app:cs-SECRET-42"))
	if strings.Contains(err.Error(), basic) || strings.Contains(err.Error(), "cs-SECRET") {
		t.Fatalf("the Basic credentials leak: %v", err)
	}
}

// TestHostileSignInAgainstLyingAS: the authorization server's metadata
// sends the token request (code, verifier, client secret) over plain http
// to a host that is not loopback. Nothing is posted there.
func TestHostileSignInAgainstLyingAS(t *testing.T) {
	for _, endpoint := range []string{"token_endpoint", "registration_endpoint", "authorization_endpoint"} {
		t.Run(endpoint, func(t *testing.T) {
			w := newWorld(t)
			w.metaExtra = map[string]any{endpoint: "http://collector.example/" + endpoint}
			a := newAuth(t, w, &Options{ClientID: "my-app", ClientSecret: "cs-SECRET-42"})
			err := call(t, w, a, "ping")
			if !isAuthErr(err, ErrInsecureHTTP) || !strings.Contains(err.Error(), "AllowInsecureHTTP") {
				t.Fatalf("call = %v, want ErrInsecureHTTP naming the override", err)
			}
			if len(w.tokenRequests()) != 0 || w.authorizeCount() != 0 {
				t.Fatal("the sign-in went ahead")
			}
		})
	}
}

// TestHostileInsecureIssuer: resource metadata naming a plain-http
// authorization server outside loopback is refused before it is asked.
func TestHostileInsecureIssuer(t *testing.T) {
	a, err := New("https://mcp.example/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.discoverServer(context.Background(), "http://as.example", true)
	if !errors.Is(err, ErrInsecureHTTP) {
		t.Fatalf("discoverServer = %v, want ErrInsecureHTTP", err)
	}
	lab, _ := New("https://mcp.example/mcp", &Options{AllowInsecureHTTP: true})
	if err := lab.requireTLS("issuer", "http://as.example"); err != nil {
		t.Fatalf("AllowInsecureHTTP still refuses: %v", err)
	}
}

// TestHostileTokenNeverSentToCleartextServer: a token is never attached to
// a request to a plain-http MCP server outside loopback, and its challenge
// gets an error that says why and how to override.
func TestHostileTokenNeverSentToCleartextServer(t *testing.T) {
	store := &MemoryStore{}
	store.Save(context.Background(), &Record{ServerURL: "http://mcp.example/mcp", Token: &Token{AccessToken: storedToken}})
	a, err := New("http://mcp.example/mcp", &Options{Store: store})
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, "http://mcp.example/mcp", nil)
	if err := a.Authorize(context.Background(), req); err != nil || req.Header.Get("Authorization") != "" {
		t.Fatalf("Authorize = %v, header %q: want no token on clear text", err, req.Header.Get("Authorization"))
	}
	_, err = a.Challenge(context.Background(), fakeResponse(http.StatusUnauthorized, "Bearer", ""))
	if !errors.Is(err, ErrInsecureHTTP) || !strings.Contains(err.Error(), "allowInsecureHttp") {
		t.Fatalf("Challenge = %v, want ErrInsecureHTTP with the override", err)
	}
	lab, _ := New("http://mcp.example/mcp", &Options{Store: store, AllowInsecureHTTP: true})
	if err := lab.Authorize(context.Background(), req); err != nil || req.Header.Get("Authorization") != "Bearer "+storedToken {
		t.Fatalf("with AllowInsecureHTTP: Authorize = %v, header %q", err, req.Header.Get("Authorization"))
	}
}

// TestHostileLegacyMixUp: a server without resource metadata publishes AS
// metadata claiming an honest authorization server's issuer (another
// origin) while its own token endpoint would collect the code.
func TestHostileLegacyMixUp(t *testing.T) {
	w := newWorld(t)
	w.prmPath, w.prmInHeader = "", false
	w.combined = true
	w.metaIssuer = "https://honest-as.example"
	a := newAuth(t, w, nil)
	err := call(t, w, a, "ping")
	if err == nil || !strings.Contains(err.Error(), "not on the server's origin") {
		t.Fatalf("call = %v, want the claimed issuer refused", err)
	}
	if w.authorizeCount() != 0 || len(w.tokenRequests()) != 0 {
		t.Fatal("the sign-in went ahead with the claimed issuer")
	}
}

// TestHostileIssMissingOrAltered: RFC 9207. An AS that advertises the iss
// parameter must send it, and it must be its issuer exactly.
func TestHostileIssMissingOrAltered(t *testing.T) {
	for name, hook := range map[string]func(url.Values, string) url.Values{
		"missing":        func(q url.Values, _ string) url.Values { q.Del("iss"); return q },
		"trailing slash": func(q url.Values, iss string) url.Values { q.Set("iss", iss+"/"); return q },
		"other issuer":   func(q url.Values, _ string) url.Values { q.Set("iss", "https://attacker.example"); return q },
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.metaExtra = map[string]any{"authorization_response_iss_parameter_supported": true}
			w.authzHook = func(q url.Values) url.Values { return hook(q, w.issuer()) }
			a := newAuth(t, w, nil)
			err := call(t, w, a, "ping")
			if err == nil || !strings.Contains(err.Error(), "RFC 9207") {
				t.Fatalf("call = %v, want the response refused by RFC 9207", err)
			}
			if len(w.tokenRequests()) != 0 {
				t.Fatal("the code went to the token endpoint")
			}
		})
	}
	w := newWorld(t)
	w.metaExtra = map[string]any{"authorization_response_iss_parameter_supported": true}
	w.authzHook = func(q url.Values) url.Values { q.Set("iss", w.issuer()); return q }
	mustCall(t, w, newAuth(t, w, nil), "ping")
}

// TestHostileForgedErrorWithWrongState: an authorization response with a
// wrong state is not an answer to this request; its access_denied must not
// become a lasting cancellation.
func TestHostileForgedErrorWithWrongState(t *testing.T) {
	w := newWorld(t)
	w.authzHook = func(url.Values) url.Values {
		return url.Values{"error": {"access_denied"}, "error_description": {"attacker text"}, "state": {"forged"}}
	}
	a := newAuth(t, w, nil)
	err := call(t, w, a, "ping")
	if err == nil || !strings.Contains(err.Error(), "wrong state") || errors.Is(err, ErrCancelled) || strings.Contains(err.Error(), "attacker text") {
		t.Fatalf("call = %v, want the wrong state refused, not a cancellation", err)
	}
}

// TestHostileTenantWidensAudience: the metadata of a server at
// /tenantA/mcp names the whole host as its resource.
func TestHostileTenantWidensAudience(t *testing.T) {
	w := newWorld(t)
	w.mcpPath = "/tenantA/mcp"
	w.prmPath = "/.well-known/oauth-protected-resource/tenantA/mcp"
	w.prmResource = w.rs.URL
	err := call(t, w, newAuth(t, w, nil), "ping")
	if !isAuthErr(err, errResourceMismatch) {
		t.Fatalf("call = %v, want errResourceMismatch", err)
	}
	if w.authorizeCount() != 0 {
		t.Fatal("the sign-in went ahead for the whole host")
	}
}

// TestHostileForgedRedirectFirst: before the browser comes back, something
// on this machine sends the loopback listener a forged answer (a wrong
// state with access_denied, then a wrong state with a code). The listener
// refuses both with 400 and keeps waiting; the real redirect signs in.
func TestHostileForgedRedirectFirst(t *testing.T) {
	w := newWorld(t)
	br := &browser{}
	var forged []int
	open := func(ctx context.Context, authURL string) error {
		u, _ := url.Parse(authURL)
		redirect := u.Query().Get("redirect_uri")
		for _, q := range []string{"error=access_denied&error_description=gotcha&state=forged", "code=attacker-code&state=forged", "code=attacker-code"} {
			resp, err := http.Get(redirect + "?" + q)
			if err != nil {
				return err
			}
			resp.Body.Close()
			forged = append(forged, resp.StatusCode)
		}
		return br.open(ctx, authURL)
	}
	a := newAuth(t, w, &Options{UserAgent: &Loopback{OpenURL: open, Out: io.Discard}})
	mustCall(t, w, a, "ping")
	if fmt.Sprint(forged) != "[400 400 400]" {
		t.Errorf("forged redirects got %v, want 400 each", forged)
	}
	for _, f := range w.tokenRequests() {
		if f.Get("code") == "attacker-code" {
			t.Fatal("the forged code was redeemed")
		}
	}
}

// TestHostileRedirectingTokenEndpoint: the token endpoint answers 307 to
// another address, which would get the code, the verifier and the
// client's Basic credentials re-posted. No redirect is followed.
func TestHostileRedirectingTokenEndpoint(t *testing.T) {
	var collected []string
	var mu sync.Mutex
	collector := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		collected = append(collected, string(body)+" "+r.Header.Get("Authorization"))
		mu.Unlock()
		http.Error(rw, "nope", http.StatusBadRequest)
	}))
	defer collector.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		http.Redirect(rw, r, collector.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()
	for _, endpoint := range []string{"token_endpoint", "registration_endpoint"} {
		t.Run(endpoint, func(t *testing.T) {
			w := newWorld(t)
			w.metaExtra = map[string]any{endpoint: redirector.URL + "/" + endpoint}
			var opts *Options
			if endpoint == "token_endpoint" {
				opts = &Options{ClientID: "my-app", ClientSecret: "cs-SECRET-42"}
			}
			err := call(t, w, newAuth(t, w, opts), "ping")
			if err == nil || !strings.Contains(err.Error(), "redirect") {
				t.Fatalf("call = %v, want the redirect refused", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(collected) != 0 {
				t.Fatalf("the redirect target received %q", collected)
			}
		})
	}
}

// TestHostileMetadataRedirects: metadata that redirects to another origin
// (or from https to http) is refused; a redirect within the origin is
// followed.
func TestHostileMetadataRedirects(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		writeJSON(rw, http.StatusOK, map[string]any{"issuer": "x"})
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(rw, r, other.URL+"/meta", http.StatusFound)
		case "/here":
			http.Redirect(rw, r, "/meta", http.StatusFound)
		default:
			writeJSON(rw, http.StatusOK, map[string]any{"issuer": "y"})
		}
	}))
	defer srv.Close()
	a, err := New(srv.URL+"/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	var m serverMetadata
	if err := a.getJSON(context.Background(), "metadata", srv.URL+"/away", &m); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Fatalf("cross-origin redirect: %v, want it refused", err)
	}
	if err := a.getJSON(context.Background(), "metadata", srv.URL+"/here", &m); err != nil || m.Issuer != "y" {
		t.Fatalf("same-origin redirect: %v %q, want it followed", err, m.Issuer)
	}
}

// expiredSignIn signs in to a world that hands out refresh tokens (which
// it rotates) with a token store, then lets the access token expire.
func expiredSignIn(t *testing.T, store Store) (*world, *clock, *Authorizer) {
	t.Helper()
	w := newWorld(t)
	w.issueRefresh, w.expiresIn = true, 60
	clk := newClock()
	a := newAuth(t, w, &Options{now: clk.now, Store: store})
	mustCall(t, w, a, "ping")
	clk.advance(2 * time.Minute)
	return w, clk, a
}

// TestHostileConcurrentRefreshRotation: two processes (two Authorizers on
// one FileStore) refresh the same expired token at once, and the
// authorization server rotates refresh tokens. The second waits for the
// first one's result instead of spending the old refresh token, so both
// end up with a token and the store keeps one.
func TestHostileConcurrentRefreshRotation(t *testing.T) {
	store := &FileStore{Dir: t.TempDir()}
	w, clk, p1 := expiredSignIn(t, store)
	p2 := newAuth(t, w, &Options{now: clk.now, Store: store})

	entered, contended := make(chan struct{}, 2), make(chan struct{}, 1)
	w.mu.Lock()
	w.tokenGate, w.tokenEntered = make(chan struct{}), entered
	w.mu.Unlock()
	lockContendedHook = func() { contended <- struct{}{} }
	t.Cleanup(func() { lockContendedHook = nil })

	headers := make(chan string, 2)
	authorize := func(a *Authorizer) {
		req, _ := http.NewRequest(http.MethodPost, w.serverURL(), nil)
		if err := a.Authorize(context.Background(), req); err != nil {
			t.Error(err)
		}
		headers <- req.Header.Get("Authorization")
	}
	go authorize(p1)
	<-entered // p1 is refreshing, holding the record's lock
	go authorize(p2)
	select {
	case <-entered: // p2 spends the same refresh token
	case <-contended: // p2 waits for p1's result
	}
	close(w.tokenGate)
	for range 2 {
		if h := <-headers; !strings.HasPrefix(h, "Bearer at-") {
			t.Errorf("a process ended without a token (header %q)", h)
		}
	}
	rec, err := store.Load(context.Background(), p1.ServerURL())
	if err != nil || rec == nil || rec.Token == nil {
		t.Fatalf("the store lost the token: %v %v", rec, err)
	}
	w.mu.Lock()
	_, live := w.refreshes[rec.Token.RefreshToken]
	w.mu.Unlock()
	if !live {
		t.Errorf("the stored refresh token %q was spent", rec.Token.RefreshToken)
	}
}

// TestRefreshRereadsTheStoreOnInvalidGrant: with a store that has no
// lock, another process rotates the refresh token while this one's
// refresh is on its way; invalid_grant then takes the other's result
// rather than signing the user out.
func TestRefreshRereadsTheStoreOnInvalidGrant(t *testing.T) {
	store := &MemoryStore{}
	w, clk, a := expiredSignIn(t, store)
	w.tokenHook = func(form url.Values, _ *http.Request) (int, string, bool) {
		if form.Get("grant_type") != "refresh_token" {
			return 0, "", false
		}
		rec, _ := store.Load(context.Background(), a.ServerURL())
		rec.Token = &Token{AccessToken: "at-other", RefreshToken: "rt-other", Expiry: clk.now().Add(time.Hour)}
		store.Save(context.Background(), rec)
		return http.StatusBadRequest, `{"error":"invalid_grant"}`, true
	}
	req, _ := http.NewRequest(http.MethodPost, w.serverURL(), nil)
	if err := a.Authorize(context.Background(), req); err != nil || req.Header.Get("Authorization") != "Bearer at-other" {
		t.Fatalf("Authorize = %v, header %q: want the other process's token", err, req.Header.Get("Authorization"))
	}
}

// TestHostileClientSecretToAnotherIssuer: a server's metadata names an
// authorization server other than the one the configured client secret
// belongs to (configured, or the first one it was used with).
func TestHostileClientSecretToAnotherIssuer(t *testing.T) {
	t.Run("configured issuer", func(t *testing.T) {
		w := newWorld(t)
		a := newAuth(t, w, &Options{ClientID: "my-app", ClientSecret: "cs-SECRET-42", ClientSecretIssuer: "https://corp-as.example"})
		err := call(t, w, a, "ping")
		if !isAuthErr(err, errSecretIssuer) {
			t.Fatalf("call = %v, want errSecretIssuer", err)
		}
		if len(w.tokenRequests()) != 0 || w.authorizeCount() != 0 {
			t.Fatal("the sign-in went ahead")
		}
		// A configured binding moves only with the configuration, not
		// with AcceptIssuer.
		accepting := newAuth(t, w, &Options{ClientID: "my-app", ClientSecret: "cs-SECRET-42", ClientSecretIssuer: "https://corp-as.example", AcceptIssuer: w.issuer()})
		err = call(t, w, accepting, "ping")
		var ice *IssuerChangedError
		if !errors.As(err, &ice) || !ice.Configured || !strings.Contains(err.Error(), "set ClientSecretIssuer") || len(w.tokenRequests()) != 0 {
			t.Fatalf("AcceptIssuer against a configured issuer: %v, %d token requests", err, len(w.tokenRequests()))
		}
	})
	t.Run("first issuer, stored", func(t *testing.T) {
		w := newWorld(t)
		store := &MemoryStore{}
		opts := func() *Options {
			return &Options{ClientID: "my-app", ClientSecret: "cs-SECRET-42", Grant: GrantClientCredentials, Store: store}
		}
		mustCall(t, w, newAuth(t, w, opts()), "ping")
		// The server now trusts another authorization server (the
		// attacker's, here on another loopback port).
		evil := newWorld(t)
		w.mu.Lock()
		w.issuerPath = ""
		w.as = evil.as
		w.tokens = map[string][]string{}
		w.mu.Unlock()
		err := call(t, w, newAuth(t, w, opts()), "ping")
		if !isAuthErr(err, errSecretIssuer) {
			t.Fatalf("call = %v, want errSecretIssuer", err)
		}
		for _, a := range evil.tokenAuthz {
			if a != "" {
				t.Fatalf("the other authorization server got client credentials %q", a)
			}
		}
		if len(evil.tokenRequests()) != 0 {
			t.Fatal("the other authorization server got a token request")
		}
		var ice *IssuerChangedError
		if !errors.As(err, &ice) || !strings.HasPrefix(ice.Named, evil.as.URL) || ice.Bound == ice.Named || strings.Contains(err.Error(), "logout") ||
			!strings.Contains(err.Error(), "Options.AcceptIssuer") {
			t.Errorf("err = %v: want an *IssuerChangedError that names the way to accept, not logout", err)
		}
		// Logout drops tokens, not the binding: a fresh sign-in is still
		// refused, and only accepting the new issuer moves it.
		if err := newAuth(t, w, opts()).Logout(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := call(t, w, newAuth(t, w, opts()), "ping"); !isAuthErr(err, errSecretIssuer) {
			t.Fatalf("after Logout: call = %v, want errSecretIssuer", err)
		}
		if len(evil.tokenRequests()) != 0 {
			t.Fatal("after Logout the other authorization server got a token request")
		}
		accepting := opts()
		accepting.AcceptIssuer = evil.issuer()
		// (The resource server does not know the new server's tokens, so
		// the call itself fails after the grant.)
		if err := call(t, w, newAuth(t, w, accepting), "ping"); errors.Is(err, errSecretIssuer) {
			t.Fatalf("accepted: call = %v", err)
		}
		if n := len(evil.tokenRequests()); n == 0 {
			t.Fatal("accepted: the new authorization server got no token request")
		}
	})
}

// TestHostileDiscoveryToCloudMetadata: a challenge or metadata names a
// link-local address (the cloud metadata service) for discovery or
// tokens. Nothing is sent there, not even with AllowInsecureHTTP.
func TestHostileDiscoveryToCloudMetadata(t *testing.T) {
	a, err := New("https://mcp.example/mcp", &Options{AllowInsecureHTTP: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.discoverResource(context.Background(), "http://169.254.169.254/latest/meta-data/"); !errors.Is(err, errLinkLocal) {
		t.Errorf("resource metadata at 169.254.169.254: %v, want errLinkLocal", err)
	}
	if _, err := a.discoverServer(context.Background(), "http://[fe80::1%25eth0]", true); !errors.Is(err, errLinkLocal) {
		t.Errorf("issuer at fe80::1: %v, want errLinkLocal", err)
	}
	w := newWorld(t)
	w.metaExtra = map[string]any{"token_endpoint": "http://169.254.169.254/token"}
	if err := call(t, w, newAuth(t, w, nil), "ping"); !isAuthErr(err, errLinkLocal) {
		t.Errorf("token endpoint at 169.254.169.254: %v, want errLinkLocal", err)
	}
	// A name that resolves to one is refused when connecting.
	for _, addr := range []string{"169.254.169.254:80", "[::ffff:169.254.169.254]:80", "[fd00:ec2::254]:80"} {
		if err := refuseLinkLocalConn("tcp", addr, nil); !errors.Is(err, errLinkLocal) {
			t.Errorf("connecting to %s: %v, want errLinkLocal", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:80", "10.0.0.5:443", "[::1]:80"} {
		if err := refuseLinkLocalConn("tcp", addr, nil); err != nil {
			t.Errorf("connecting to %s: %v, want it allowed", addr, err)
		}
	}
}

// TestHostileNoSignInForCleartextServer: signing in to a plain-http
// server on another host is refused at discovery (where Login, Prepare
// and challenges all go) before anyone is asked, since its token would
// never be sent.
func TestHostileNoSignInForCleartextServer(t *testing.T) {
	ua := &refusingAgent{err: errors.New("the user was asked")}
	a, err := New("http://mcp.example/mcp", &Options{UserAgent: ua})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.discover(context.Background(), ""); !errors.Is(err, ErrInsecureHTTP) {
		t.Fatalf("discover = %v, want ErrInsecureHTTP", err)
	}
	if ua.count() != 0 {
		t.Fatal("the user was asked to sign in")
	}
}

// TestRefreshUsesAnotherProcesssRotatedToken: another process refreshed
// (rotating the refresh token) and its access token has expired since:
// this one refreshes with the stored refresh token, not its spent one.
func TestRefreshUsesAnotherProcesssRotatedToken(t *testing.T) {
	store := &MemoryStore{}
	w, clk, p1 := expiredSignIn(t, store)
	p2 := newAuth(t, w, &Options{now: clk.now, Store: store})
	mustCall(t, w, p2, "ping") // p2 refreshes: rt-1 is spent
	clk.advance(2 * time.Minute)
	req, _ := http.NewRequest(http.MethodPost, w.serverURL(), nil)
	if err := p1.Authorize(context.Background(), req); err != nil || !strings.HasPrefix(req.Header.Get("Authorization"), "Bearer at-") {
		t.Fatalf("Authorize = %v, header %q: want a refreshed token", err, req.Header.Get("Authorization"))
	}
	for _, f := range w.tokenRequests()[2:] {
		if f.Get("refresh_token") == "rt-1" {
			t.Fatal("the spent refresh token was sent again")
		}
	}
}
