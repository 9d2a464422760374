package auth

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestAuthorizationCodeFlow(t *testing.T) {
	w := newWorld(t)
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	q := w.lastAuthorize(t)
	for k, want := range map[string]string{
		"response_type":         "code",
		"code_challenge_method": "S256",
		"redirect_uri":          testRedirect,
		"resource":              w.serverURL(),
		"client_id":             "dyn-client-1",
	} {
		if got := q.Get(k); got != want {
			t.Errorf("authorization request %s = %q, want %q", k, got, want)
		}
	}
	if q.Get("state") == "" || len(q.Get("code_challenge")) != 43 || q.Has("scope") {
		t.Errorf("authorization request = %v: want a state, a 43-character challenge and no scope", q)
	}
	tr := w.tokenRequests()
	if len(tr) != 1 || tr[0].Get("resource") != w.serverURL() || tr[0].Get("client_id") != "dyn-client-1" {
		t.Errorf("token requests = %v", tr)
	}
	// The token is reused: a second call needs no sign-in.
	mustCall(t, w, a, "tools/list")
	if w.authorizeCount() != 1 {
		t.Errorf("authorizations = %d, want 1", w.authorizeCount())
	}
}

func TestScopeSelection(t *testing.T) {
	for _, tc := range []struct {
		name           string
		challengeScope string
		configured     []string
		prmScopes      []string
		asScopes       []string
		want           string // "" means no scope parameter
	}{
		{"from the challenge", "mcp:basic", []string{"cfg"}, []string{"a", "b"}, nil, "mcp:basic"},
		{"configured", "", []string{"cfg1", "cfg2"}, []string{"a", "b"}, nil, "cfg1 cfg2"},
		{"all of scopes_supported", "", nil, []string{"a", "b", "c"}, nil, "a b c"},
		{"omitted", "", nil, nil, nil, ""},
		{"offline_access when offered", "", nil, []string{"a"}, []string{"a", "offline_access"}, "a offline_access"},
		{"no offline_access when not offered", "", nil, []string{"a"}, []string{"a", "b"}, "a"},
		{"no offline_access alone", "", nil, nil, []string{"offline_access"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.challengeScope, w.prmScopes, w.asScopes = tc.challengeScope, tc.prmScopes, tc.asScopes
			a := newAuth(t, w, &Options{Scopes: tc.configured})
			mustCall(t, w, a, "ping")
			q := w.lastAuthorize(t)
			if got := q.Get("scope"); got != tc.want || q.Has("scope") != (tc.want != "") {
				t.Errorf("scope = %q (present %v), want %q", got, q.Has("scope"), tc.want)
			}
		})
	}
}

func TestClientIdentityOrder(t *testing.T) {
	t.Run("pre-registered first", func(t *testing.T) {
		w := newWorld(t)
		w.cimd = true
		a := newAuth(t, w, &Options{ClientID: "pre", ClientSecret: "pre-secret-value", ClientMetadataURL: "https://app.example/client.json"})
		mustCall(t, w, a, "ping")
		if got := w.lastAuthorize(t).Get("client_id"); got != "pre" || len(w.regBodies) != 0 {
			t.Errorf("client_id = %q, registrations %d; want the pre-registered client and none", got, len(w.regBodies))
		}
	})
	t.Run("metadata document when supported", func(t *testing.T) {
		w := newWorld(t)
		w.cimd = true
		a := newAuth(t, w, &Options{ClientMetadataURL: "https://app.example/client.json"})
		mustCall(t, w, a, "ping")
		if got := w.lastAuthorize(t).Get("client_id"); got != "https://app.example/client.json" || len(w.regBodies) != 0 {
			t.Errorf("client_id = %q, registrations %d", got, len(w.regBodies))
		}
	})
	t.Run("registration when the document is not supported", func(t *testing.T) {
		w := newWorld(t)
		a := newAuth(t, w, &Options{ClientMetadataURL: "https://app.example/client.json", ClientName: "tester"})
		mustCall(t, w, a, "ping")
		if len(w.regBodies) != 1 {
			t.Fatalf("registrations = %d, want 1", len(w.regBodies))
		}
		body := w.regBodies[0]
		if body["client_name"] != "tester" || fmt.Sprint(body["redirect_uris"]) != "["+testRedirect+"]" ||
			!strings.Contains(fmt.Sprint(body["grant_types"]), "refresh_token") || body["token_endpoint_auth_method"] != "none" {
			t.Errorf("registration body = %v", body)
		}
	})
	t.Run("nothing possible", func(t *testing.T) {
		w := newWorld(t)
		w.noRegister = true
		err := call(t, w, newAuth(t, w, nil), "ping")
		if !isAuthErr(err, errNoClientID) {
			t.Fatalf("err = %v, want errNoClientID", err)
		}
	})
	t.Run("registration reused across authorizers", func(t *testing.T) {
		w := newWorld(t)
		store := &MemoryStore{}
		mustCall(t, w, newAuth(t, w, &Options{Store: store}), "ping")
		// The token is gone (expired, dropped), the registration is kept.
		rec, _ := store.Load(t.Context(), w.serverURL())
		rec.Token = nil
		store.Save(t.Context(), rec)
		mustCall(t, w, newAuth(t, w, &Options{Store: store}), "ping")
		if len(w.regBodies) != 1 || w.authorizeCount() != 2 {
			t.Errorf("registrations %d, authorizations %d; want the stored registration reused for a second sign-in", len(w.regBodies), w.authorizeCount())
		}
		if got := w.lastAuthorize(t).Get("client_id"); got != "dyn-client-1" {
			t.Errorf("client_id = %q", got)
		}
	})
}

func TestTokenEndpointAuthMethods(t *testing.T) {
	for _, tc := range []struct {
		method, regMethod, regSecret string
	}{
		{AuthClientSecretBasic, AuthClientSecretBasic, "reg-secret-1"},
		{AuthClientSecretPost, AuthClientSecretPost, "reg-secret-2"},
		{AuthNone, AuthNone, ""},
	} {
		t.Run(tc.method, func(t *testing.T) {
			w := newWorld(t)
			w.authMethods = []string{tc.method}
			w.regMethod, w.regSecret = tc.regMethod, tc.regSecret
			mustCall(t, w, newAuth(t, w, nil), "ping")
			if got := w.regBodies[0]["token_endpoint_auth_method"]; got != tc.method {
				t.Errorf("registration asked for %v, want %s", got, tc.method)
			}
			form, authz := w.tokenForms[0], w.tokenAuthz[0]
			switch tc.method {
			case AuthClientSecretBasic:
				want := "Basic " + base64.StdEncoding.EncodeToString([]byte("dyn-client-1:reg-secret-1"))
				if authz != want || form.Has("client_secret") {
					t.Errorf("Authorization = %q, form %v", authz, form)
				}
			case AuthClientSecretPost:
				if authz != "" || form.Get("client_id") != "dyn-client-1" || form.Get("client_secret") != "reg-secret-2" {
					t.Errorf("Authorization = %q, form %v", authz, form)
				}
			case AuthNone:
				if authz != "" || form.Get("client_id") != "dyn-client-1" || form.Has("client_secret") {
					t.Errorf("Authorization = %q, form %v", authz, form)
				}
			}
		})
	}
}

func TestChooseAuthMethod(t *testing.T) {
	for _, tc := range []struct {
		supported   []string
		secret, key bool
		want        string
	}{
		{nil, true, false, AuthClientSecretBasic},
		{[]string{"client_secret_post"}, true, false, AuthClientSecretPost},
		{[]string{"none"}, true, false, AuthNone},
		{[]string{"client_secret_basic"}, false, false, AuthNone},
		{[]string{"client_secret_basic"}, true, true, AuthPrivateKeyJWT},
		{[]string{"tls_client_auth"}, true, false, AuthClientSecretBasic},
	} {
		if got := chooseAuthMethod(tc.supported, tc.secret, tc.key); got != tc.want {
			t.Errorf("chooseAuthMethod(%v, secret %v, key %v) = %s, want %s", tc.supported, tc.secret, tc.key, got, tc.want)
		}
	}
}

func TestStepUpAsksForTheUnionOfScopes(t *testing.T) {
	w := newWorld(t)
	w.challengeScope = "mcp:basic"
	w.required["tools/call"] = []string{"mcp:basic", "mcp:write"}
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "tools/list")
	mustCall(t, w, a, "tools/call")
	if n := w.authorizeCount(); n != 2 {
		t.Fatalf("authorizations = %d, want 2", n)
	}
	if got := strings.Fields(w.lastAuthorize(t).Get("scope")); !slices.Equal(got, []string{"mcp:basic", "mcp:write"}) {
		t.Errorf("step-up scope = %q", got)
	}
	// The new token serves both; no more sign-ins.
	mustCall(t, w, a, "tools/list")
	mustCall(t, w, a, "tools/call")
	if n := w.authorizeCount(); n != 2 {
		t.Errorf("authorizations = %d after using the stepped-up token, want 2", n)
	}
}

func TestRetryLimit(t *testing.T) {
	w := newWorld(t)
	w.rejectAll = true // every token gets 403 insufficient_scope
	a := newAuth(t, w, nil)
	err := call(t, w, a, "tools/list")
	if !isAuthErr(err, errTooManyAttempts) {
		t.Fatalf("err = %v, want errTooManyAttempts", err)
	}
	if n := w.authorizeCount(); n != maxAttempts {
		t.Errorf("authorizations = %d, want %d", n, maxAttempts)
	}
	// The budget is not refilled by failing again.
	if err := call(t, w, a, "tools/list"); !isAuthErr(err, errTooManyAttempts) || w.authorizeCount() != maxAttempts {
		t.Errorf("second call: err = %v, authorizations %d", err, w.authorizeCount())
	}
	// Reset (the user asked to try again) refills it.
	a.Reset()
	call(t, w, a, "tools/list")
	if n := w.authorizeCount(); n != 2*maxAttempts {
		t.Errorf("after Reset: authorizations = %d, want %d", n, 2*maxAttempts)
	}
}

func TestForbiddenForOtherReasonsIsPassedOn(t *testing.T) {
	w := newWorld(t)
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	// A 403 without insufficient_scope is not an authorization matter.
	resp := fakeResponse(403, `Bearer error="access_denied_by_policy"`, "")
	if retry, err := a.Challenge(t.Context(), resp); retry || err != nil {
		t.Errorf("Challenge = %v, %v; want false, nil", retry, err)
	}
}

func TestCancelledSignInIsNotRepeated(t *testing.T) {
	w := newWorld(t)
	ua := &refusingAgent{err: fmt.Errorf("the user closed the window: %w", ErrCancelled)}
	a := newAuth(t, w, &Options{UserAgent: ua})
	for i := 0; i < 3; i++ {
		if err := call(t, w, a, "ping"); !isAuthErr(err, ErrCancelled) {
			t.Fatalf("call %d: err = %v, want ErrCancelled", i, err)
		}
	}
	if n := ua.count(); n != 1 {
		t.Errorf("the user was asked %d times, want once", n)
	}
	a.Reset()
	call(t, w, a, "ping")
	if n := ua.count(); n != 2 {
		t.Errorf("after Reset the user was asked %d times in all, want 2", n)
	}
}

func TestAccessDeniedCountsAsCancelled(t *testing.T) {
	w := newWorld(t)
	w.authzHook = func(q url.Values) url.Values {
		return url.Values{"error": {"access_denied"}, "error_description": {"user said no"}, "state": q["state"]}
	}
	a := newAuth(t, w, nil)
	err := call(t, w, a, "ping")
	var oe *OAuthError
	if !isAuthErr(err, ErrCancelled) || !errors.As(err, &oe) || oe.Code != "access_denied" {
		t.Fatalf("err = %v, want ErrCancelled with the access_denied OAuthError", err)
	}
}

func TestStateMismatchIsRejected(t *testing.T) {
	w := newWorld(t)
	w.authzHook = func(q url.Values) url.Values {
		q["state"] = []string{"forged"}
		return q
	}
	err := call(t, w, newAuth(t, w, nil), "ping")
	if err == nil || !strings.Contains(err.Error(), "wrong state") || len(w.tokenRequests()) != 0 {
		t.Fatalf("err = %v (token requests %d), want the response refused before any token request", err, len(w.tokenRequests()))
	}
}

func TestWrongIssuerInResponseIsRejected(t *testing.T) {
	w := newWorld(t)
	w.authzHook = func(q url.Values) url.Values {
		q["iss"] = []string{"https://mix-up.example"}
		return q
	}
	err := call(t, w, newAuth(t, w, nil), "ping")
	if err == nil || !strings.Contains(err.Error(), "RFC 9207") {
		t.Fatalf("err = %v, want the mix-up refused", err)
	}
}

func TestHeadlessNeedsInteraction(t *testing.T) {
	w := newWorld(t)
	a, err := New(w.serverURL(), &Options{SignInHint: "run the login command"})
	if err != nil {
		t.Fatal(err)
	}
	err = call(t, w, a, "ping")
	if !isAuthErr(err, ErrInteractionRequired) || !strings.Contains(err.Error(), "; run the login command") {
		t.Fatalf("err = %v, want ErrInteractionRequired with the way out", err)
	}
}

func TestUserAgentOpenFailure(t *testing.T) {
	w := newWorld(t)
	a := newAuth(t, w, &Options{UserAgent: openFails{}})
	if err := call(t, w, a, "ping"); err == nil || !strings.Contains(err.Error(), "port in use") {
		t.Fatalf("err = %v", err)
	}
}

type openFails struct{}

func (openFails) Open(context.Context) (Callback, error) { return nil, errors.New("port in use") }

func TestLoginAndPrepare(t *testing.T) {
	w := newWorld(t)
	a := newAuth(t, w, nil)
	if err := a.Prepare(t.Context()); err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if w.authorizeCount() != 1 {
		t.Fatalf("Prepare did not sign in")
	}
	if err := a.Prepare(t.Context()); err != nil || w.authorizeCount() != 1 {
		t.Fatalf("Prepare with a token: err %v, authorizations %d", err, w.authorizeCount())
	}
	mustCall(t, w, a, "ping")
	if err := a.Login(t.Context()); err != nil || w.authorizeCount() != 2 {
		t.Fatalf("Login: err %v, authorizations %d; want a fresh sign-in", err, w.authorizeCount())
	}
	if st := a.Status(t.Context()); st == nil || st.Token == nil || st.Issuer != w.issuer() {
		t.Errorf("Status = %v", st)
	}
	if err := a.Logout(t.Context()); err != nil || a.Status(t.Context()) != nil {
		t.Errorf("Logout: %v, status after: %v", err, a.Status(t.Context()))
	}
}

func TestLoginToAnUnprotectedServer(t *testing.T) {
	w := newWorld(t)
	w.prmPath = ""
	w.rejectAll = false
	a := newAuth(t, w, nil)
	// Make the server answer without a challenge: every token is known.
	w.tokens[""] = nil
	err := a.Login(t.Context())
	if !errors.Is(err, ErrNotProtected) {
		t.Fatalf("Login = %v, want ErrNotProtected", err)
	}
	if err := a.Prepare(t.Context()); err != nil {
		t.Errorf("Prepare on an open server = %v, want nil", err)
	}
}
