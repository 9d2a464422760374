package gateway

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/config"
	"github.com/mcpwire/mcpwire/internal/server"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// postInitialize POSTs an initialize to url with the Authorization value
// given ("" for none).
func postInitialize(t *testing.T, url, authorization string) *http.Response {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

// The endpoint as a resource server: the metadata says where tokens come
// from; no token, a wrong one, one for another audience and an expired
// one get 401 with the challenge the MCP authorization spec asks for;
// valid RS256 and ES256 tokens pass.
func TestOAuthProtectsTheEndpoint(t *testing.T) {
	is := newTestIssuer(t)
	rsaKey, ecKey := newRSAKey(t, "r1"), newECKey(t, "e1")
	is.publish(rsaKey, ecKey)
	g := newGateway(t, map[string]*server.Server{"up": server.NewServer(nil)}, nil)
	const aud = "https://mcp.example/mcp"
	web := httptest.NewServer(g.Handler(&HTTPOptions{OAuth: &OAuthOptions{Issuer: is.url, Audience: aud}}))
	t.Cleanup(web.Close)

	// RFC 9728 metadata, in both the plain and the path-suffixed form.
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		resp, err := http.Get(web.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		var md struct {
			Resource             string   `json:"resource"`
			AuthorizationServers []string `json:"authorization_servers"`
		}
		err = json.NewDecoder(resp.Body).Decode(&md)
		_ = resp.Body.Close()
		if err != nil || resp.StatusCode != 200 || md.Resource != web.URL+"/mcp" || len(md.AuthorizationServers) != 1 || md.AuthorizationServers[0] != is.url {
			t.Fatalf("%s: %d %v %+v", path, resp.StatusCode, err, md)
		}
	}

	now := time.Now()
	spoilt := func(key *testKey, change func(map[string]any)) string {
		c := is.claims(aud, now)
		change(c)
		return "Bearer " + key.sign(t, c)
	}
	same := func(map[string]any) {}
	typed := func(typ string) string { return "Bearer " + rsaKey.signTyp(t, is.claims(aud, now), typ) }
	forged := ecKey.sign(t, is.claims(aud, now))
	forged = forged[:strings.LastIndex(forged, ".")+1] + strings.Repeat("A", 86) // a signature of the right length, not the key's
	for _, tc := range []struct {
		name, auth string
		want       int
		invalid    bool // error="invalid_token" expected
	}{
		{"no token", "", 401, false},
		{"not a JWT", "Bearer wrong", 401, true},
		{"forged signature", "Bearer " + forged, 401, true},
		{"another audience", spoilt(rsaKey, func(c map[string]any) { c["aud"] = "https://other.example/mcp" }), 401, true},
		{"another issuer", spoilt(rsaKey, func(c map[string]any) { c["iss"] = "https://evil.example" }), 401, true},
		{"expired", spoilt(rsaKey, func(c map[string]any) { c["exp"] = now.Add(-2 * clockSkew).Unix() }), 401, true},
		{"not yet valid", spoilt(rsaKey, func(c map[string]any) { c["nbf"] = now.Add(2 * clockSkew).Unix() }), 401, true},
		{"no expiry", spoilt(rsaKey, func(c map[string]any) { delete(c, "exp") }), 401, true},
		{"valid RS256", spoilt(rsaKey, same), 200, false},
		{"valid ES256, audience in a list", spoilt(ecKey, func(c map[string]any) { c["aud"] = []string{"x", aud} }), 200, false},
		{"expired within the skew", spoilt(ecKey, func(c map[string]any) { c["exp"] = now.Add(-clockSkew / 2).Unix() }), 200, false},
		// typ: an access token's (RFC 9068), the plain JWT that common
		// authorization servers write, or none pass; a JWT of another
		// kind signed by the same issuer (a logout token, an event) does
		// not.
		{"typ JWT", typed("JWT"), 200, false},
		{"typ application/at+jwt", typed("application/at+JWT"), 200, false},
		{"no typ", typed(""), 200, false},
		{"typ logout+jwt", typed("logout+jwt"), 401, true},
		{"typ secevent+jwt", typed("secevent+jwt"), 401, true},
	} {
		resp := postInitialize(t, web.URL+"/mcp", tc.auth)
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
			continue
		}
		if tc.want != 401 {
			continue
		}
		challenge := resp.Header.Get("WWW-Authenticate")
		if !strings.HasPrefix(challenge, "Bearer ") || !strings.Contains(challenge, `resource_metadata="`+web.URL+`/.well-known/oauth-protected-resource/mcp"`) {
			t.Errorf("%s: WWW-Authenticate %q", tc.name, challenge)
		}
		if strings.Contains(challenge, `error="invalid_token"`) != tc.invalid {
			t.Errorf("%s: WWW-Authenticate %q, invalid_token expected: %v", tc.name, challenge, tc.invalid)
		}
	}
}

// A token signed with a key the gateway has not seen makes it fetch the
// key set again (the issuer rotated its keys), but no more often than the
// floor allows, however many unknown kids arrive.
func TestOAuthRefetchesKeysOnRotation(t *testing.T) {
	is := newTestIssuer(t)
	old, rotated := newECKey(t, "old"), newECKey(t, "new")
	is.publish(old)
	const aud = "mcpwire"
	check := newOAuthCheck(&OAuthOptions{Issuer: is.url, Audience: aud}, http.NotFoundHandler())
	clock := time.Now()
	check.keys.now = func() time.Time { return clock }
	verify := func(k *testKey) error {
		_, err := check.verify(context.Background(), k.sign(t, is.claims(aud, time.Now())))
		return err
	}
	if err := verify(old); err != nil || is.fetchCount() != 1 {
		t.Fatalf("first token: %v, %d fetches", err, is.fetchCount())
	}
	is.publish(rotated)
	clock = clock.Add(jwksRefetchFloor)
	if err := verify(rotated); err != nil || is.fetchCount() != 2 {
		t.Fatalf("token under the new key: %v, %d fetches", err, is.fetchCount())
	}
	// Straight after a fetch, unknown kids are refused without another.
	for range 3 {
		if err := verify(newECKey(t, "stranger")); err == nil || !strings.Contains(err.Error(), "not in the authorization server's key set") {
			t.Fatalf("unknown kid: %v", err)
		}
	}
	if n := is.fetchCount(); n != 2 {
		t.Errorf("%d fetches after unknown kids within the floor, want 2", n)
	}
	// The old key is gone from the set: its tokens no longer pass.
	if err := verify(old); err == nil {
		t.Error("a token under the retired key passed")
	}
}

// A key set that could not be fetched yet is tried again at most once
// every 30 seconds too, as docs/serve.md says: before, every token made a
// fetch while the first had failed, each holding the others behind it for
// up to the client's timeout, so a flood of made-up tokens became a flood
// of requests to the issuer and a queue of waiting hosts.
func TestOAuthFailedFirstFetchKeepsTheFloor(t *testing.T) {
	is := newTestIssuer(t)
	k := newECKey(t, "k")
	is.publish(k)
	is.setDown(true)
	const aud = "mcpwire"
	check := newOAuthCheck(&OAuthOptions{Issuer: is.url, Audience: aud}, http.NotFoundHandler())
	clock := time.Now()
	check.keys.now = func() time.Time { return clock }
	verify := func() error {
		_, err := check.verify(context.Background(), k.sign(t, is.claims(aud, time.Now())))
		return err
	}
	for range 3 {
		if err := verify(); err == nil || !strings.Contains(err.Error(), "503") {
			t.Fatalf("token while the key set is down: %v, want the fetch's failure", err)
		}
	}
	if n := is.fetchCount(); n != 1 {
		t.Errorf("%d fetches of a failing key set within the floor, want 1", n)
	}
	is.setDown(false)
	clock = clock.Add(jwksRefetchFloor)
	if err := verify(); err != nil || is.fetchCount() != 2 {
		t.Fatalf("token once the key set is back: %v, %d fetches", err, is.fetchCount())
	}
}

// An explicit JWKS URL is used as is, with no metadata lookup.
func TestOAuthExplicitJWKS(t *testing.T) {
	is := newTestIssuer(t)
	k := newRSAKey(t, "k")
	is.publish(k)
	check := newOAuthCheck(&OAuthOptions{Issuer: "https://issuer.example", Audience: "a", JWKSURL: is.url + "/jwks"}, http.NotFoundHandler())
	c := is.claims("a", time.Now())
	c["iss"] = "https://issuer.example"
	delete(c, "sub")
	c["client_id"] = "robot"
	who, err := check.verify(context.Background(), k.sign(t, c))
	if err != nil || who != "robot" {
		t.Fatalf("verify: %q %v", who, err)
	}
}

// Over HTTP the audit log names the caller: a token's subject, or for a
// host without authentication its session, by a hash of the id.
func TestAuditNamesTheHTTPCaller(t *testing.T) {
	is := newTestIssuer(t)
	key := newECKey(t, "k")
	is.publish(key)
	lines := make(lineWriter, 4)
	g := newGateway(t, map[string]*server.Server{"up": opsUpstream(make(chan struct{}))}, &Options{Audit: &AuditOptions{Out: lines}})
	const aud = "mcpwire"
	authed := httptest.NewServer(g.Handler(&HTTPOptions{OAuth: &OAuthOptions{Issuer: is.url, Audience: aud}}))
	t.Cleanup(authed.Close)
	open := httptest.NewServer(g.Handler(nil))
	t.Cleanup(open.Close)

	for _, tc := range []struct {
		url, version, token string
		who                 func(string) bool
	}{
		{authed.URL, "2025-11-25", key.sign(t, is.claims(aud, time.Now())), func(w string) bool { return w == "alice" }},
		{open.URL, "2025-11-25", "", func(w string) bool { return strings.HasPrefix(w, "session:") && len(w) == len("session:")+12 }},
		{open.URL, mcp.ModernProtocolVersion, "", func(w string) bool { return w == "http" }},
	} {
		def := &config.Server{Type: config.TypeHTTP, URL: tc.url + "/mcp"}
		if tc.token != "" {
			def.Headers = map[string]string{"Authorization": "Bearer " + tc.token}
		}
		tr, err := transport.FromServer(def, transport.ServerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := mcp.Connect(t.Context(), tr, &mcp.ClientOptions{ProtocolVersion: tc.version})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.url, tc.version, err)
		}
		_, err = c.CallTool(t.Context(), "up__ok", nil, nil)
		_ = c.Close()
		if err != nil {
			t.Fatal(err)
		}
		var l struct{ Who string }
		if err := json.Unmarshal([]byte(<-lines), &l); err != nil || !tc.who(l.Who) {
			t.Errorf("%s %s: who %q (%v)", tc.url, tc.version, l.Who, err)
		}
	}
}
