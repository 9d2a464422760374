package auth

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestDiscoveryFromTheChallengeURL(t *testing.T) {
	w := newWorld(t)
	w.prmPath = "/custom/metadata.json" // only the challenge says where
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	got := w.hitsOf("RS GET")
	if want := []string{"RS GET /custom/metadata.json"}; !slices.Equal(got, want) {
		t.Errorf("metadata requests = %q, want %q", got, want)
	}
}

func TestDiscoveryPathBasedBeforeRoot(t *testing.T) {
	w := newWorld(t)
	w.prmInHeader = false
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	got := w.hitsOf("RS GET")
	if want := []string{"RS GET /.well-known/oauth-protected-resource/mcp"}; !slices.Equal(got, want) {
		t.Errorf("metadata requests = %q, want only the path-based one (the root must not be asked first)", got)
	}
}

func TestDiscoveryFallsBackToTheRoot(t *testing.T) {
	w := newWorld(t)
	w.prmInHeader = false
	w.prmPath = "/.well-known/oauth-protected-resource"
	w.prmResource = w.rs.URL // a root resource covers /mcp
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	got := w.hitsOf("RS GET")
	want := []string{"RS GET /.well-known/oauth-protected-resource/mcp", "RS GET /.well-known/oauth-protected-resource"}
	if !slices.Equal(got, want) {
		t.Errorf("metadata requests = %q, want %q", got, want)
	}
	if res := w.lastAuthorize(t).Get("resource"); res != w.rs.URL {
		t.Errorf("resource = %q, want the metadata's %q", res, w.rs.URL)
	}
}

func TestAuthorizationServerMetadataOrder(t *testing.T) {
	for _, tc := range []struct {
		name, issuerPath, metaPath string
		want                       []string
	}{
		{"8414 without path", "", "/.well-known/oauth-authorization-server",
			[]string{"/.well-known/oauth-authorization-server"}},
		{"OIDC without path", "", "/.well-known/openid-configuration",
			[]string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"}},
		{"8414 with path", "/tenant1", "/.well-known/oauth-authorization-server/tenant1",
			[]string{"/.well-known/oauth-authorization-server/tenant1"}},
		{"OIDC appended", "/tenant1", "/.well-known/openid-configuration/tenant1",
			[]string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1"}},
		{"OIDC inserted", "/tenant1", "/tenant1/.well-known/openid-configuration",
			[]string{"/.well-known/oauth-authorization-server/tenant1", "/.well-known/openid-configuration/tenant1", "/tenant1/.well-known/openid-configuration"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.issuerPath, w.metaPath = tc.issuerPath, tc.metaPath
			a := newAuth(t, w, nil)
			mustCall(t, w, a, "ping")
			var got []string
			for _, h := range w.hitsOf("AS GET /") {
				if strings.Contains(h, ".well-known") {
					got = append(got, strings.TrimPrefix(h, "AS GET "))
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("metadata requests = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLegacyServerMetadataAtTheRoot(t *testing.T) {
	// A 2025-03-26 server: no resource metadata; it is its own
	// authorization server, with endpoints under /oauth.
	w := newWorld(t)
	w.prmPath, w.prmInHeader = "", false
	w.combined = true // one server plays both parts
	w.issuerPath = "/oauth"
	w.metaPath = "/.well-known/oauth-authorization-server"
	w.metaIssuer = w.rs.URL + "/oauth" // differs from the origin asked: allowed here
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	if n := len(w.hitsOf("AS POST /oauth/token")); n != 1 {
		t.Errorf("token requests at /oauth/token: %d, want 1 (hits %q)", n, w.hitsOf(""))
	}
}

func TestLegacyDefaultEndpoints(t *testing.T) {
	w := newWorld(t)
	w.prmPath, w.prmInHeader = "", false
	w.combined = true
	w.noMeta = true
	w.pkce = nil // nothing to check without metadata; PKCE is still used
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	for _, want := range []string{"AS POST /register", "AS GET /authorize", "AS POST /token"} {
		if len(w.hitsOf(want)) != 1 {
			t.Errorf("%s: not requested once (hits %q)", want, w.hitsOf(""))
		}
	}
	if q := w.lastAuthorize(t); q.Get("code_challenge_method") != "S256" || q.Get("resource") != w.serverURL() {
		t.Errorf("authorization request = %v", q)
	}
}

func TestResourceMismatchIsRefused(t *testing.T) {
	w := newWorld(t)
	w.prmResource = "https://evil.example.com/mcp"
	a := newAuth(t, w, nil)
	err := call(t, w, a, "ping")
	if !isAuthErr(err, errResourceMismatch) {
		t.Fatalf("err = %v, want errResourceMismatch", err)
	}
	if w.authorizeCount() != 0 || len(w.hitsOf("AS")) != 0 {
		t.Errorf("the client went on to the authorization server: %q", w.hitsOf("AS"))
	}
}

// RFC 9728 section 3.3: the resource must be the one whose well-known URL
// the metadata came from. A tenant's metadata naming the whole host (or a
// parent path) would widen the token's audience to other tenants.
func TestResourceMustMatchWhereTheMetadataCameFrom(t *testing.T) {
	const pathBased = "https://h/.well-known/oauth-protected-resource/tenantA/mcp"
	const root = "https://h/.well-known/oauth-protected-resource"
	a, err := New("https://h/tenantA/mcp", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		resource, from string
		ok             bool
	}{
		{"https://h/tenantA/mcp", pathBased, true},
		{"https://h/tenantA/mcp/", pathBased, true},
		{"https://H:443/tenantA/mcp", pathBased, true},
		{"https://h/tenantA/mcp", root, true},
		{"https://h", root, true},
		{"https://h/", root, true},
		{"https://h", pathBased, false}, // the tenant widening to the host
		{"https://h/tenantA", pathBased, false},
		{"https://h/tenantA", root, false},
		{"https://h/tenantA/mcp/x", pathBased, false},
		{"https://h/tenantA/mcp?x=1", pathBased, false},
		{"http://h/tenantA/mcp", pathBased, false},
		{"https://h:8443/tenantA/mcp", pathBased, false},
		{"https://other/tenantA/mcp", pathBased, false},
		{"", pathBased, false},
		{"tenantA/mcp", pathBased, false}, // relative: names nothing
		{"/tenantA/mcp", pathBased, false},
	} {
		m := &protectedResourceMetadata{Resource: tc.resource, AuthorizationServers: []string{"https://as"}}
		if err := a.checkResource(m, tc.from); (err == nil) != tc.ok {
			t.Errorf("checkResource(%q from %s) = %v, want ok %v", tc.resource, tc.from, err, tc.ok)
		}
	}
}

func TestNoPKCESupportIsRefused(t *testing.T) {
	for name, methods := range map[string][]string{"omitted": nil, "plain only": {"plain"}} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.pkce = methods
			a := newAuth(t, w, nil)
			err := call(t, w, a, "ping")
			if !isAuthErr(err, errNoPKCE) {
				t.Fatalf("err = %v, want errNoPKCE", err)
			}
			if w.authorizeCount() != 0 {
				t.Error("an authorization request was made anyway")
			}
		})
	}
}

func TestMetadataNotFoundAnywhere(t *testing.T) {
	w := newWorld(t)
	w.noMeta = true
	a := newAuth(t, w, nil)
	err := call(t, w, a, "ping")
	if err == nil || !strings.Contains(err.Error(), "no metadata for authorization server") ||
		!strings.Contains(err.Error(), "openid-configuration") {
		t.Fatalf("err = %v, want one that lists the URLs tried", err)
	}
}

func TestMetadataServerErrorIsNotNotFound(t *testing.T) {
	w := newWorld(t)
	w.prmStatus = http.StatusInternalServerError
	a := newAuth(t, w, nil)
	err := call(t, w, a, "ping")
	if err == nil || !strings.Contains(err.Error(), "500") {
		t.Fatalf("err = %v, want the 500 of the metadata", err)
	}
	// A 5xx is not "absent": the client must not go on guessing.
	if got := w.hitsOf("RS GET"); len(got) != 1 {
		t.Errorf("metadata requests = %q, want just the one that failed", got)
	}
}

func TestIssuerMismatchIsRefused(t *testing.T) {
	w := newWorld(t)
	w.metaIssuer = "https://impostor.example"
	a := newAuth(t, w, nil)
	err := call(t, w, a, "ping")
	if err == nil || !strings.Contains(err.Error(), "impostor") || w.authorizeCount() != 0 {
		t.Fatalf("err = %v (authorizations %d), want the issuer refused", err, w.authorizeCount())
	}
}

func TestDiscoveryErrorsAreSentinels(t *testing.T) {
	// Callers tell failures apart with errors.Is through the transport.
	w := newWorld(t)
	w.prmResource = "https://elsewhere.example/mcp"
	err := call(t, w, newAuth(t, w, nil), "ping")
	if !errors.Is(err, errResourceMismatch) {
		t.Fatalf("errors.Is(err, errResourceMismatch) = false for %v", err)
	}
}

func TestNonJSONMetadataMeansAbsent(t *testing.T) {
	// A web app answering unknown paths with its HTML page must not stop
	// discovery: the root metadata is tried next.
	w := newWorld(t)
	w.prmInHeader = false
	w.prmPath = "/.well-known/oauth-protected-resource"
	w.prmResource = w.rs.URL
	w.htmlPaths = map[string]bool{"/.well-known/oauth-protected-resource/mcp": true}
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	if got := w.hitsOf("RS GET"); len(got) != 2 {
		t.Errorf("metadata requests = %q, want the HTML one skipped and the root one used", got)
	}
}

func TestOtherSchemesAreNotAnswered(t *testing.T) {
	a, err := New("http://127.0.0.1:9/mcp", &Options{UserAgent: &approver{}})
	if err != nil {
		t.Fatal(err)
	}
	retry, err := a.Challenge(t.Context(), fakeResponse(401, `Basic realm="intranet"`, ""))
	if retry || err != nil {
		t.Errorf("Challenge(Basic) = %v, %v; want the 401 passed on", retry, err)
	}
}

// A server with no metadata that does not answer at the guessed default
// endpoints (a gateway with a fixed token, say): the error says the
// endpoint was only guessed, not just that registration failed.
func TestLegacyDefaultEndpointsMissingSayGuessed(t *testing.T) {
	w := newWorld(t)
	w.prmPath, w.prmInHeader = "", false
	w.combined = true
	w.noMeta = true
	w.noRegister = true
	w.pkce = nil
	a := newAuth(t, w, nil)
	err := call(t, w, a, "ping")
	var oe *OAuthError
	if !errors.As(err, &oe) || oe.Endpoint != "client registration" {
		t.Fatalf("err = %v, want the registration's OAuthError", err)
	}
	if !strings.Contains(err.Error(), "only the 2025-03-26 default") || !strings.Contains(err.Error(), "may not take OAuth tokens") {
		t.Errorf("err = %v; want it to say the endpoint was guessed", err)
	}
}
