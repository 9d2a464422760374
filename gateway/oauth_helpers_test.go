package gateway

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// testIssuer is an authorization server on loopback: RFC 8414 metadata
// naming its JWKS, whose keys the test can rotate; it counts JWKS fetches.
type testIssuer struct {
	url string

	mu      sync.Mutex
	keys    []map[string]string // the public JWKs served
	fetches int
	down    bool // the JWKS answers 503
	// hold, when set, makes each JWKS fetch say so on holding and then
	// wait until hold is closed.
	hold, holding chan struct{}
}

func newTestIssuer(t *testing.T) *testIssuer {
	is := &testIssuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": is.url, "jwks_uri": is.url + "/jwks"})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, _ *http.Request) {
		is.mu.Lock()
		hold, holding := is.hold, is.holding
		is.mu.Unlock()
		if hold != nil {
			holding <- struct{}{}
			<-hold
		}
		is.mu.Lock()
		defer is.mu.Unlock()
		is.fetches++
		if is.down {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"keys": is.keys})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	is.url = srv.URL
	return is
}

// publish replaces the served key set.
func (is *testIssuer) publish(keys ...*testKey) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.keys = nil
	for _, k := range keys {
		is.keys = append(is.keys, k.jwk)
	}
}

// holdFetches makes every later JWKS fetch wait until the returned func
// is called; each one that starts is sent on the returned channel.
func (is *testIssuer) holdFetches() (<-chan struct{}, func()) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.hold, is.holding = make(chan struct{}), make(chan struct{}, 1)
	return is.holding, sync.OnceFunc(func() { close(is.hold) })
}

// setDown makes the JWKS fail (503) or serve again.
func (is *testIssuer) setDown(down bool) {
	is.mu.Lock()
	defer is.mu.Unlock()
	is.down = down
}

func (is *testIssuer) fetchCount() int {
	is.mu.Lock()
	defer is.mu.Unlock()
	return is.fetches
}

// testKey signs tokens as RS256 or ES256 under a kid.
type testKey struct {
	kid  string
	alg  string
	priv crypto.Signer
	jwk  map[string]string
}

func b64u(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func newRSAKey(t *testing.T, kid string) *testKey {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return &testKey{kid: kid, alg: "RS256", priv: priv, jwk: map[string]string{
		"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
		"n": b64u(priv.N.Bytes()), "e": b64u(big.NewInt(int64(priv.E)).Bytes()),
	}}
}

func newECKey(t *testing.T, kid string) *testKey {
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	point, err := priv.PublicKey.Bytes() // 0x04 || X || Y
	if err != nil {
		t.Fatal(err)
	}
	return &testKey{kid: kid, alg: "ES256", priv: priv, jwk: map[string]string{
		"kty": "EC", "kid": kid, "crv": "P-256", "x": b64u(point[1:33]), "y": b64u(point[33:]),
	}}
}

// sign returns a compact JWS of claims.
func (k *testKey) sign(t *testing.T, claims map[string]any) string {
	t.Helper()
	return k.signTyp(t, claims, "at+jwt")
}

// signTyp signs claims with typ in the header; "" leaves typ out.
func (k *testKey) signTyp(t *testing.T, claims map[string]any, typ string) string {
	t.Helper()
	header := map[string]string{"alg": k.alg, "kid": k.kid}
	if typ != "" {
		header["typ"] = typ
	}
	h, _ := json.Marshal(header)
	c, _ := json.Marshal(claims)
	input := b64u(h) + "." + b64u(c)
	digest := sha256.Sum256([]byte(input))
	var sig []byte
	switch priv := k.priv.(type) {
	case *rsa.PrivateKey:
		var err error
		if sig, err = rsa.SignPKCS1v15(rand.Reader, priv, crypto.SHA256, digest[:]); err != nil {
			t.Fatal(err)
		}
	case *ecdsa.PrivateKey:
		r, s, err := ecdsa.Sign(rand.Reader, priv, digest[:])
		if err != nil {
			t.Fatal(err)
		}
		sig = append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
	}
	return input + "." + b64u(sig)
}

// claims are a valid token's claims for the issuer and audience, which
// the test then spoils one at a time.
func (is *testIssuer) claims(aud string, now time.Time) map[string]any {
	return map[string]any{"iss": is.url, "aud": aud, "sub": "alice", "exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix()}
}
