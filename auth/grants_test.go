package auth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

func TestClientCredentialsWithSecret(t *testing.T) {
	w := newWorld(t)
	w.authMethods = []string{"client_secret_basic"}
	w.prmScopes = []string{"svc"}
	a := newAuth(t, w, &Options{Grant: GrantClientCredentials, ClientID: "svc client", ClientSecret: "s&cret"})
	mustCall(t, w, a, "ping")
	f := w.tokenRequests()[0]
	if f.Get("grant_type") != "client_credentials" || f.Get("resource") != w.serverURL() || f.Get("scope") != "svc" {
		t.Errorf("token request = %v", f)
	}
	// RFC 6749 2.3.1: form-encoded, then base64.
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("svc+client:s%26cret"))
	if got := w.tokenAuthz[0]; got != want {
		t.Errorf("Authorization = %q, want %q", got, want)
	}
	if w.authorizeCount() != 0 || len(w.regBodies) != 0 {
		t.Error("the client credentials grant involved the user or a registration")
	}
}

func pemOf(t *testing.T, key any) []byte {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})
}

// verifyJWT checks a compact JWS against pub and returns its claims.
func verifyJWT(t *testing.T, token string, pub any) map[string]any {
	t.Helper()
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		t.Fatalf("not a compact JWS: %d parts", len(parts))
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	switch k := pub.(type) {
	case *ecdsa.PublicKey:
		r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
		if len(sig) != 64 || !ecdsa.Verify(k, sum[:], r, s) {
			t.Fatal("ES256 signature does not verify")
		}
	case *rsa.PublicKey:
		if err := rsa.VerifyPKCS1v15(k, crypto.SHA256, sum[:], sig); err != nil {
			t.Fatalf("RS256 signature does not verify: %v", err)
		}
	}
	var header map[string]string
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	json.Unmarshal(hb, &header)
	var claims map[string]any
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	if err := json.Unmarshal(cb, &claims); err != nil {
		t.Fatal(err)
	}
	claims["_alg"] = header["alg"]
	return claims
}

func TestClientCredentialsWithPrivateKeyJWT(t *testing.T) {
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	for _, tc := range []struct {
		name string
		key  any
		pub  any
		alg  string
	}{
		{"ES256", ecKey, &ecKey.PublicKey, "ES256"},
		{"RS256", rsaKey, &rsaKey.PublicKey, "RS256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.authMethods = []string{"private_key_jwt"}
			a := newAuth(t, w, &Options{Grant: GrantClientCredentials, ClientID: "svc", PrivateKeyPEM: pemOf(t, tc.key), SigningAlg: tc.alg})
			mustCall(t, w, a, "ping")
			f := w.tokenRequests()[0]
			if f.Get("client_assertion_type") != assertionTypeJWTBearer {
				t.Fatalf("token request = %v", f)
			}
			claims := verifyJWT(t, f.Get("client_assertion"), tc.pub)
			if claims["iss"] != "svc" || claims["sub"] != "svc" || claims["aud"] != w.issuer() || claims["_alg"] != tc.alg || claims["jti"] == "" {
				t.Errorf("claims = %v", claims)
			}
		})
	}
}

func TestPrivateKeyProblems(t *testing.T) {
	ecKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	for _, tc := range []struct {
		name string
		pem  []byte
		alg  string
		want string
	}{
		{"not PEM", []byte("hello"), "", "not PEM"},
		{"wrong block", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1}}), "", `"CERTIFICATE"`},
		{"garbage DER", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}}), "", "does not parse"},
		{"alg mismatch", pemOf(t, ecKey), "RS256", "needs ES256"},
		{"P-384 as ES256", pemOf(t, p384), "ES256", "needs ES384"},
	} {
		_, err := New("https://h/mcp", &Options{Grant: GrantClientCredentials, ClientID: "c", PrivateKeyPEM: tc.pem, SigningAlg: tc.alg})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestNewValidatesOptions(t *testing.T) {
	for _, tc := range []struct {
		url  string
		opts Options
		want string
	}{
		{"ftp://h/x", Options{}, "scheme must be http or https"},
		{"https:///x", Options{}, "no host"},
		{"https://h/mcp", Options{ClientSecret: "s"}, "without a client ID"},
		{"https://h/mcp", Options{ClientMetadataURL: "http://h/c.json"}, "https URL with a path"},
		{"https://h/mcp", Options{ClientMetadataURL: "https://h/"}, "https URL with a path"},
		{"https://h/mcp", Options{Grant: GrantClientCredentials, ClientID: "c"}, "client secret or a private key"},
		{"https://h/mcp", Options{Grant: GrantEnterprise, ClientID: "c"}, "identity token source"},
		{"https://h/mcp", Options{Grant: "implicit"}, `unknown grant "implicit"`},
	} {
		_, err := New(tc.url, &tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%s, %+v) = %v, want %q", tc.url, tc.opts, err, tc.want)
		}
	}
}

// idp is an identity provider's token endpoint for the enterprise flow.
type idp struct {
	mu    sync.Mutex
	forms []url.Values
}

func (p *idp) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	p.mu.Lock()
	p.forms = append(p.forms, r.PostForm)
	p.mu.Unlock()
	if r.PostForm.Get("subject_token") != "id-token-from-sso" {
		writeJSON(rw, 400, map[string]string{"error": "invalid_grant"})
		return
	}
	writeJSON(rw, 200, map[string]string{"access_token": "the-id-jag", "issued_token_type": tokenTypeIDJAG, "token_type": "N_A"})
}

func TestEnterpriseFlow(t *testing.T) {
	p := &idp{}
	srv := httptest.NewServer(p)
	defer srv.Close()
	w := newWorld(t)
	w.authMethods = []string{"client_secret_basic"}
	a := newAuth(t, w, &Options{
		Grant: GrantEnterprise, ClientID: "mcp-client", ClientSecret: "mcp-secret",
		Enterprise: &Enterprise{
			IDToken:       func(context.Context) (string, error) { return "id-token-from-sso", nil },
			TokenEndpoint: srv.URL + "/token",
			ClientID:      "idp-client",
		},
	})
	mustCall(t, w, a, "ping")
	ex := p.forms[0]
	for k, want := range map[string]string{
		"grant_type":           grantTokenExchange,
		"requested_token_type": tokenTypeIDJAG,
		"subject_token_type":   tokenTypeIDToken,
		"audience":             w.issuer(),
		"resource":             w.serverURL(),
		"client_id":            "idp-client",
	} {
		if ex.Get(k) != want {
			t.Errorf("token exchange %s = %q, want %q", k, ex.Get(k), want)
		}
	}
	f := w.tokenRequests()[0]
	if f.Get("grant_type") != grantJWTBearer || f.Get("assertion") != "the-id-jag" ||
		w.tokenAuthz[0] != "Basic "+base64.StdEncoding.EncodeToString([]byte("mcp-client:mcp-secret")) {
		t.Errorf("JWT bearer request = %v (Authorization %q)", f, w.tokenAuthz[0])
	}
}

func TestEnterpriseFlowFailures(t *testing.T) {
	t.Run("no ID token", func(t *testing.T) {
		w := newWorld(t)
		a := newAuth(t, w, &Options{Grant: GrantEnterprise, ClientID: "c",
			Enterprise: &Enterprise{IDToken: func(context.Context) (string, error) { return "", errors.New("SSO session expired") }, TokenEndpoint: "http://127.0.0.1:9/token"}})
		if err := call(t, w, a, "ping"); err == nil || !strings.Contains(err.Error(), "SSO session expired") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("wrong issued token type", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
			writeJSON(rw, 200, map[string]string{"access_token": "x", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token"})
		}))
		defer srv.Close()
		w := newWorld(t)
		a := newAuth(t, w, &Options{Grant: GrantEnterprise, ClientID: "c",
			Enterprise: &Enterprise{IDToken: func(context.Context) (string, error) { return "t", nil }, TokenEndpoint: srv.URL}})
		if err := call(t, w, a, "ping"); err == nil || !strings.Contains(err.Error(), "not an identity assertion grant") {
			t.Errorf("err = %v", err)
		}
	})
}
