package auth

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWorkloadIdentityGrant(t *testing.T) {
	w := newWorld(t)
	w.noRegister = true
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte("workload-jwt-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newAuth(t, w, &Options{Grant: GrantWorkloadIdentity, WorkloadToken: WorkloadTokenFile(file)})
	mustCall(t, w, a, "ping")
	tr := w.tokenRequests()
	if len(tr) != 1 {
		t.Fatalf("token requests = %d, want 1", len(tr))
	}
	for k, want := range map[string]string{
		"grant_type": grantJWTBearer,
		"assertion":  "workload-jwt-1",
		"resource":   w.serverURL(),
		"client_id":  "",
	} {
		if got := tr[0].Get(k); got != want {
			t.Errorf("token request %s = %q, want %q", k, got, want)
		}
	}
	if w.authorizeCount() != 0 {
		t.Errorf("authorizations = %d, want none (no user in this grant)", w.authorizeCount())
	}

	// The platform rotates the token in place: the next grant reads the
	// new one.
	if err := os.WriteFile(file, []byte("workload-jwt-2"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	clear(w.tokens)
	w.mu.Unlock()
	mustCall(t, w, a, "ping")
	tr = w.tokenRequests()
	if got := tr[len(tr)-1].Get("assertion"); got != "workload-jwt-2" {
		t.Errorf("second assertion = %q, want the rotated token", got)
	}
}

func TestWorkloadIdentityWithClientID(t *testing.T) {
	w := newWorld(t)
	t.Setenv("TEST_WIF_TOKEN", "workload-jwt-env")
	a := newAuth(t, w, &Options{Grant: GrantWorkloadIdentity, ClientID: "wl-client", WorkloadToken: WorkloadTokenEnv("TEST_WIF_TOKEN")})
	mustCall(t, w, a, "ping")
	f := w.tokenRequests()[0]
	if f.Get("client_id") != "wl-client" || f.Get("assertion") != "workload-jwt-env" {
		t.Errorf("token request = %v", f)
	}
}

// A refused grant fails the request with the server's error, once: no
// retry and no fallback to another grant.
func TestWorkloadIdentityRefused(t *testing.T) {
	w := newWorld(t)
	w.tokenHook = func(form url.Values, r *http.Request) (int, string, bool) {
		return 400, `{"error":"invalid_grant","error_description":"JWT assertion is expired"}`, true
	}
	a := newAuth(t, w, &Options{Grant: GrantWorkloadIdentity, WorkloadToken: func(context.Context) (string, error) { return "expired-jwt-value", nil }})
	err := call(t, w, a, "ping")
	if err == nil || !strings.Contains(err.Error(), "invalid_grant") || strings.Contains(err.Error(), "expired-jwt-value") {
		t.Fatalf("err = %v, want invalid_grant without the assertion", err)
	}
	if n := len(w.tokenRequests()); n != 1 || w.authorizeCount() != 0 || len(w.regBodies) != 0 {
		t.Errorf("token requests %d, authorizations %d, registrations %d; want exactly one token request", n, w.authorizeCount(), len(w.regBodies))
	}
	t.Setenv("TEST_WIF_EMPTY", "")
	if _, err := WorkloadTokenEnv("TEST_WIF_EMPTY")(t.Context()); err == nil || !strings.Contains(err.Error(), "TEST_WIF_EMPTY") {
		t.Errorf("empty env: err = %v", err)
	}
	if _, err := New(w.serverURL(), &Options{Grant: GrantWorkloadIdentity}); err == nil || !strings.Contains(err.Error(), "workload token source") {
		t.Errorf("New without a source: err = %v", err)
	}
}

// The workload token goes to one authorization server only: a server that
// later names another (its own, say) cannot collect it for a replay.
func TestWorkloadIdentityBoundToFirstIssuer(t *testing.T) {
	w := newWorld(t)
	a := newAuth(t, w, &Options{Grant: GrantWorkloadIdentity, WorkloadToken: func(context.Context) (string, error) { return "workload-jwt", nil }})
	mustCall(t, w, a, "ping")
	w.mu.Lock()
	w.issuerPath = "/elsewhere"
	clear(w.tokens)
	w.mu.Unlock()
	err := call(t, w, a, "ping")
	if !isAuthErr(err, errWorkloadIssuer) {
		t.Fatalf("err = %v, want errWorkloadIssuer", err)
	}
	if n := len(w.tokenRequests()); n != 1 {
		t.Errorf("token requests = %d, want only the first (none to the new issuer)", n)
	}
	// Configured for the new issuer, it goes there.
	b := newAuth(t, w, &Options{Grant: GrantWorkloadIdentity, ClientSecretIssuer: w.issuer(), WorkloadToken: func(context.Context) (string, error) { return "workload-jwt", nil }})
	mustCall(t, w, b, "ping")
}
