package auth

import (
	"testing"
)

func TestRegistrationSendsApplicationType(t *testing.T) {
	w := newWorld(t)
	mustCall(t, w, newAuth(t, w, nil), "ping")
	if len(w.regBodies) != 1 || w.regBodies[0]["application_type"] != "native" {
		t.Fatalf("registration bodies = %v, want application_type native for a loopback redirect", w.regBodies)
	}
	for redirect, want := range map[string]string{
		"http://127.0.0.1:8976/callback":   "native",
		"http://localhost:3000/callback":   "native",
		"http://[::1]:9/cb":                "native",
		"com.example.app:/oauth2redirect":  "native",
		"https://app.example.com/callback": "web",
		"http://app.example.com/callback":  "web",
	} {
		if got := applicationType(redirect); got != want {
			t.Errorf("applicationType(%q) = %q, want %q", redirect, got, want)
		}
	}
}

// A server that moves to another authorization server refuses the old
// server's token; the client must read the resource metadata again,
// register with the new server and never show it the old client.
func TestAuthorizationServerMigration(t *testing.T) {
	w := newWorld(t)
	store := &MemoryStore{}
	a := newAuth(t, w, &Options{Store: store})
	mustCall(t, w, a, "ping")
	oldIssuer := w.issuer()

	w.mu.Lock()
	w.issuerPath = "/tenant2" // the metadata now names another issuer
	clear(w.tokens)           // and the old server's tokens are refused
	w.mu.Unlock()
	mustCall(t, w, a, "tools/list")

	if len(w.regBodies) != 2 {
		t.Fatalf("registrations = %d, want a second one with the new authorization server", len(w.regBodies))
	}
	if got := w.lastAuthorize(t).Get("client_id"); got != "dyn-client-2" {
		t.Errorf("client_id at the new server = %q, want the client registered there", got)
	}
	tr := w.tokenRequests()
	if got := tr[len(tr)-1].Get("client_id"); got != "dyn-client-2" {
		t.Errorf("token request client_id = %q, want dyn-client-2", got)
	}
	rec, _ := store.Load(t.Context(), w.serverURL())
	if rec == nil || rec.Issuer != w.issuer() || rec.Issuer == oldIssuer || rec.Registration == nil || rec.Registration.Issuer != w.issuer() {
		t.Errorf("stored record = %v, want the new issuer's token and registration", rec)
	}
}

// A token refused while the metadata still names the same server costs one
// metadata read, not a new registration.
func TestRejectedTokenSameServerKeepsRegistration(t *testing.T) {
	w := newWorld(t)
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	w.mu.Lock()
	clear(w.tokens)
	w.mu.Unlock()
	mustCall(t, w, a, "ping")
	if len(w.regBodies) != 1 || w.authorizeCount() != 2 {
		t.Errorf("registrations %d, authorizations %d; want the registration reused", len(w.regBodies), w.authorizeCount())
	}
	if n := len(w.hitsOf("RS GET /.well-known/oauth-protected-resource")); n != 2 {
		t.Errorf("resource metadata reads = %d, want 2 (once more after the refusal)", n)
	}
}

// A client ID metadata document comes before dynamic registration, even a
// stored one, once the authorization server supports documents.
func TestMetadataDocumentBeforeStoredRegistration(t *testing.T) {
	w := newWorld(t)
	store := &MemoryStore{}
	opts := func() *Options {
		return &Options{Store: store, ClientMetadataURL: "https://app.example/client.json"}
	}
	mustCall(t, w, newAuth(t, w, opts()), "ping")
	if len(w.regBodies) != 1 {
		t.Fatalf("registrations = %d, want 1", len(w.regBodies))
	}
	rec, _ := store.Load(t.Context(), w.serverURL())
	rec.Token = nil
	store.Save(t.Context(), rec)
	w.mu.Lock()
	w.cimd = true
	w.mu.Unlock()
	mustCall(t, w, newAuth(t, w, opts()), "ping")
	if got := w.lastAuthorize(t).Get("client_id"); got != "https://app.example/client.json" {
		t.Errorf("client_id = %q, want the metadata document URL", got)
	}
}
