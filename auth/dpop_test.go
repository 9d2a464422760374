package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// dpopServer plays the DPoP side of an authorization server and a
// resource server (RFC 9449) on a world: it verifies every proof as a
// real server would (signature by the embedded key, typ, alg, htm, htu,
// iat, ath, nonce, fresh jti) and binds the tokens it issues to the key's
// thumbprint.
type dpopServer struct {
	w       *world
	asNonce string // required at the token endpoint when set
	rsNonce string // required at the MCP endpoint when set

	bound    map[string]string // access token -> jkt
	jtis     map[string]bool
	problems []string // every proof that failed verification, and why
	asAsked  int      // use_dpop_nonce answers from the token endpoint
	rsAsked  int      // and from the MCP endpoint
	schemes  []string // Authorization schemes seen at the MCP endpoint
}

func newDPoPWorld(t *testing.T) (*world, *dpopServer) {
	w := newWorld(t)
	d := &dpopServer{w: w, bound: map[string]string{}, jtis: map[string]bool{}}
	w.metaExtra = map[string]any{"dpop_signing_alg_values_supported": []string{"ES256"}}
	w.issueRefresh = true
	w.tokenHook = d.token
	w.mcpHook = d.mcp
	return w, d
}

// token runs under w.mu.
func (d *dpopServer) token(form url.Values, r *http.Request) (int, string, bool) {
	proof := r.Header.Get("DPoP")
	if proof == "" {
		return 0, "", false // a Bearer token, as the world issues
	}
	jkt, claims, err := verifyProof(proof, http.MethodPost, d.w.issuer()+"/token", "")
	if err == nil && d.jtis[fmt.Sprint(claims["jti"])] {
		err = errors.New("a proof was replayed")
	}
	if err != nil {
		d.problems = append(d.problems, "token endpoint: "+err.Error())
		return 400, `{"error":"invalid_dpop_proof"}`, true
	}
	d.jtis[fmt.Sprint(claims["jti"])] = true
	if d.asNonce != "" && claims["nonce"] != d.asNonce {
		d.asAsked++
		d.w.tokenReplyHeader = http.Header{"Dpop-Nonce": {d.asNonce}}
		return 400, `{"error":"use_dpop_nonce","error_description":"nonce required"}`, true
	}
	// Issue a token as the world does, bound to the key.
	var scopes []string
	switch form.Get("grant_type") {
	case "authorization_code":
		g, ok := d.w.codes[form.Get("code")]
		if !ok {
			return 400, `{"error":"invalid_grant"}`, true
		}
		delete(d.w.codes, form.Get("code"))
		scopes = g.scopes
	case "refresh_token":
		s, ok := d.w.refreshes[form.Get("refresh_token")]
		if !ok {
			return 400, `{"error":"invalid_grant"}`, true
		}
		delete(d.w.refreshes, form.Get("refresh_token"))
		scopes = s
	}
	d.w.n++
	at, rt := fmt.Sprintf("dpop-at-%d", d.w.n), fmt.Sprintf("dpop-rt-%d", d.w.n)
	d.w.tokens[at], d.w.refreshes[rt] = scopes, scopes
	d.bound[at] = jkt
	reply := map[string]any{"access_token": at, "token_type": "DPoP", "refresh_token": rt}
	if d.w.expiresIn > 0 {
		reply["expires_in"] = d.w.expiresIn
	}
	b, _ := json.Marshal(reply)
	return 200, string(b), true
}

// mcp runs under w.mu.
func (d *dpopServer) mcp(rw http.ResponseWriter, r *http.Request) bool {
	authz := r.Header.Get("Authorization")
	if authz == "" {
		return false // the world's 401 starts discovery
	}
	scheme, tok, _ := strings.Cut(authz, " ")
	d.schemes = append(d.schemes, scheme)
	jkt, isBound := d.bound[tok]
	if !isBound {
		return false
	}
	fail := func(why string) bool {
		d.problems = append(d.problems, "MCP endpoint: "+why)
		rw.Header().Set("WWW-Authenticate", `DPoP error="invalid_token"`)
		rw.WriteHeader(http.StatusUnauthorized)
		return true
	}
	if scheme != "DPoP" {
		return fail("a bound token came with the " + scheme + " scheme")
	}
	got, claims, err := verifyProof(r.Header.Get("DPoP"), r.Method, d.w.serverURL(), tok)
	switch {
	case err != nil:
		return fail(err.Error())
	case got != jkt:
		return fail("the proof is signed by another key than the token is bound to")
	case d.jtis[fmt.Sprint(claims["jti"])]:
		return fail("a proof was replayed")
	}
	d.jtis[fmt.Sprint(claims["jti"])] = true
	if d.rsNonce != "" && claims["nonce"] != d.rsNonce {
		d.rsAsked++
		rw.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce", error_description="nonce required"`)
		rw.Header().Set("DPoP-Nonce", d.rsNonce)
		rw.WriteHeader(http.StatusUnauthorized)
		return true
	}
	// Let the world answer as for any known token.
	r.Header.Set("Authorization", "Bearer "+tok)
	return false
}

// verifyProof checks a DPoP proof as RFC 9449 section 4.3 says and
// returns the thumbprint of its key and its claims.
func verifyProof(proof, htm, htu, accessToken string) (string, map[string]any, error) {
	parts := strings.Split(proof, ".")
	if len(parts) != 3 {
		return "", nil, errors.New("the proof is not a compact JWS")
	}
	var hdr struct {
		Typ string            `json:"typ"`
		Alg string            `json:"alg"`
		JWK map[string]string `json:"jwk"`
	}
	var claims map[string]any
	if err := decodeSegment(parts[0], &hdr); err != nil {
		return "", nil, err
	}
	if err := decodeSegment(parts[1], &claims); err != nil {
		return "", nil, err
	}
	if hdr.Typ != "dpop+jwt" || hdr.Alg != "ES256" || hdr.JWK["kty"] != "EC" || hdr.JWK["crv"] != "P-256" || hdr.JWK["d"] != "" {
		return "", nil, fmt.Errorf("bad header %+v", hdr)
	}
	x, _ := base64.RawURLEncoding.DecodeString(hdr.JWK["x"])
	y, _ := base64.RawURLEncoding.DecodeString(hdr.JWK["y"])
	pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", nil, errors.New("the signature does not verify")
	}
	if claims["htm"] != htm {
		return "", nil, fmt.Errorf("htm %v, want %s", claims["htm"], htm)
	}
	if claims["htu"] != htu {
		return "", nil, fmt.Errorf("htu %v, want %s", claims["htu"], htu)
	}
	if jti, _ := claims["jti"].(string); len(jti) < 16 {
		return "", nil, errors.New("no random jti")
	}
	if iat, _ := claims["iat"].(float64); time.Since(time.Unix(int64(iat), 0)).Abs() > time.Minute {
		return "", nil, errors.New("iat is not now")
	}
	if accessToken != "" {
		h := sha256.Sum256([]byte(accessToken))
		if claims["ath"] != base64.RawURLEncoding.EncodeToString(h[:]) {
			return "", nil, errors.New("ath does not match the token")
		}
	} else if _, has := claims["ath"]; has {
		return "", nil, errors.New("ath in a token request")
	}
	thumb := fmt.Sprintf(`{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}`, hdr.JWK["x"], hdr.JWK["y"])
	ts := sha256.Sum256([]byte(thumb))
	return base64.RawURLEncoding.EncodeToString(ts[:]), claims, nil
}

func decodeSegment(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return errors.New("a segment is not base64url")
	}
	return json.Unmarshal(b, v)
}

func (d *dpopServer) check(t *testing.T) {
	t.Helper()
	d.w.mu.Lock()
	defer d.w.mu.Unlock()
	if len(d.problems) > 0 {
		t.Errorf("proof problems: %q", d.problems)
	}
	if len(d.bound) == 0 {
		t.Error("no DPoP-bound token was issued")
	}
	for _, s := range d.schemes {
		if s != "DPoP" {
			t.Errorf("Authorization schemes = %q, want DPoP only", d.schemes)
			break
		}
	}
}

func TestDPoPWhenAdvertised(t *testing.T) {
	w, d := newDPoPWorld(t)
	store := &MemoryStore{}
	a := newAuth(t, w, &Options{Store: store})
	mustCall(t, w, a, "ping")
	mustCall(t, w, a, "tools/list") // a second request: a fresh proof
	d.check(t)
	rec, _ := store.Load(t.Context(), w.serverURL())
	if rec == nil || rec.Token == nil || rec.Token.Type != "DPoP" || rec.Token.DPoPKey == "" {
		t.Fatalf("stored token = %v, want a DPoP token with its key", rec)
	}
	if strings.Contains(rec.String(), rec.Token.DPoPKey) || strings.Contains(fmt.Sprintf("%#v %v", rec, rec.Token), rec.Token.DPoPKey) {
		t.Error("the printed record shows the DPoP key")
	}
	if len(d.jtis) != 3 {
		t.Errorf("distinct proofs = %d, want 3 (token request, two MCP requests)", len(d.jtis))
	}

	// A second Authorizer on the same store uses the stored key.
	b := newAuth(t, w, &Options{Store: store})
	mustCall(t, w, b, "ping")
	d.check(t)
	if w.authorizeCount() != 1 {
		t.Errorf("authorizations = %d, want the stored bound token reused", w.authorizeCount())
	}
}

func TestDPoPFreshKeyPerCredential(t *testing.T) {
	w, d := newDPoPWorld(t)
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	w.mu.Lock()
	clear(w.tokens)
	clear(w.refreshes)
	w.mu.Unlock()
	mustCall(t, w, a, "ping")
	d.check(t)
	keys := map[string]bool{}
	for _, jkt := range d.bound {
		keys[jkt] = true
	}
	if len(d.bound) != 2 || len(keys) != 2 {
		t.Errorf("%d tokens bound to %d keys, want a new key for the new sign-in", len(d.bound), len(keys))
	}
}

func TestDPoPNonces(t *testing.T) {
	w, d := newDPoPWorld(t)
	d.asNonce, d.rsNonce = "as-nonce-1", "rs-nonce-1"
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	mustCall(t, w, a, "tools/list")
	d.check(t)
	if d.asAsked != 1 || d.rsAsked != 1 {
		t.Errorf("nonce challenges: token endpoint %d, MCP endpoint %d; want one each (the nonce is then reused)", d.asAsked, d.rsAsked)
	}
	// The server rotates its nonce: one more round trip, no sign-in.
	w.mu.Lock()
	d.rsNonce = "rs-nonce-2"
	w.mu.Unlock()
	mustCall(t, w, a, "ping")
	if d.rsAsked != 2 || w.authorizeCount() != 1 {
		t.Errorf("after rotation: nonce challenges %d, authorizations %d", d.rsAsked, w.authorizeCount())
	}
}

func TestDPoPRefreshUsesTheSameKey(t *testing.T) {
	w, d := newDPoPWorld(t)
	w.expiresIn = 3600
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	a.mu.Lock()
	a.rec.Token.Expiry = time.Now().Add(-time.Minute) // the next call refreshes first
	a.mu.Unlock()
	mustCall(t, w, a, "ping")
	d.check(t)
	forms := w.tokenRequests()
	if len(forms) != 2 || forms[1].Get("grant_type") != "refresh_token" {
		t.Fatalf("token requests = %v, want a code grant then a refresh", forms)
	}
	keys := map[string]bool{}
	for _, jkt := range d.bound {
		keys[jkt] = true
	}
	if len(keys) != 1 {
		t.Errorf("refreshed token bound to %d keys, want the original one", len(keys))
	}
}

func TestDPoPModes(t *testing.T) {
	t.Run("off", func(t *testing.T) {
		w, d := newDPoPWorld(t)
		mustCall(t, w, newAuth(t, w, &Options{DPoP: DPoPOff}), "ping")
		if len(d.bound) != 0 {
			t.Errorf("bound tokens = %d with DPoP off", len(d.bound))
		}
	})
	t.Run("on without advertisement", func(t *testing.T) {
		w, d := newDPoPWorld(t)
		w.metaExtra = nil
		mustCall(t, w, newAuth(t, w, &Options{DPoP: DPoPOn}), "ping")
		d.check(t)
	})
	t.Run("auto without advertisement", func(t *testing.T) {
		w, d := newDPoPWorld(t)
		w.metaExtra = map[string]any{"dpop_signing_alg_values_supported": []string{"RS256"}}
		mustCall(t, w, newAuth(t, w, nil), "ping")
		if len(d.bound) != 0 {
			t.Errorf("bound tokens = %d, want Bearer when the server takes no ES256 proofs", len(d.bound))
		}
	})
	if _, err := New("http://127.0.0.1:9/mcp", &Options{DPoP: "sometimes"}); err == nil || !strings.Contains(err.Error(), "DPoP mode") {
		t.Errorf("New with a bad mode: %v", err)
	}
}

// A server that answers use_dpop_nonce to the nonce it just gave gets no
// endless retries.
func TestDPoPNonceLoopIsBounded(t *testing.T) {
	w, d := newDPoPWorld(t)
	a := newAuth(t, w, nil)
	mustCall(t, w, a, "ping")
	w.mu.Lock()
	w.mcpHook = func(rw http.ResponseWriter, r *http.Request) bool {
		d.rsAsked++
		rw.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
		rw.Header().Set("DPoP-Nonce", "always-the-same")
		rw.WriteHeader(http.StatusUnauthorized)
		return true
	}
	w.mu.Unlock()
	if err := call(t, w, a, "ping"); err == nil {
		t.Fatal("the call succeeded against a server that never accepts")
	}
	if d.rsAsked != 2 {
		t.Errorf("requests = %d, want 2 (one retry with the nonce)", d.rsAsked)
	}
}

func TestDPoPProofShape(t *testing.T) {
	k, err := newDPoPKey()
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse("HTTPS://user:pw@Example.COM:8443/mcp/x?q=1#frag")
	p, err := k.proof("POST", u, "n-1", "the-token", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	jkt, claims, err := verifyProof(p, "POST", "https://example.com:8443/mcp/x", "the-token")
	if err != nil {
		t.Fatal(err)
	}
	if jkt != k.thumbprint() || claims["nonce"] != "n-1" {
		t.Errorf("thumbprint %s vs %s, claims %v", jkt, k.thumbprint(), claims)
	}
	enc, _ := k.encode()
	back, err := decodeDPoPKey(enc)
	if err != nil || back.thumbprint() != k.thumbprint() {
		t.Errorf("the stored key does not come back: %v", err)
	}
	for _, bad := range []string{"", "!!", b64([]byte("not der"))} {
		if _, err := decodeDPoPKey(bad); err == nil || strings.Contains(err.Error(), bad+"x") {
			t.Errorf("decodeDPoPKey(%q) = %v", bad, err)
		}
	}
}

// A token endpoint that echoes the proof in its error does not get it
// printed.
func TestDPoPProofNotEchoed(t *testing.T) {
	w, _ := newDPoPWorld(t)
	w.tokenHook = func(form url.Values, r *http.Request) (int, string, bool) {
		b, _ := json.Marshal(map[string]string{"error": "invalid_dpop_proof", "error_description": "bad proof " + r.Header.Get("DPoP")})
		return 400, string(b), true
	}
	err := call(t, w, newAuth(t, w, nil), "ping")
	if err == nil || !strings.Contains(err.Error(), "invalid_dpop_proof") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "eyJ") {
		t.Errorf("the error shows the proof: %v", err)
	}
}

func TestOAuthChallengeTakesDPoP(t *testing.T) {
	for _, tc := range []struct {
		header, scheme, rm string
		ours               bool
	}{
		{`DPoP algs="ES256", resource_metadata="https://h/.well-known/oauth-protected-resource/mcp"`, "DPoP", "https://h/.well-known/oauth-protected-resource/mcp", true},
		{`DPoP algs="ES256", Bearer resource_metadata="https://h/b"`, "Bearer", "https://h/b", true},
		{`Basic realm="x"`, "", "", false},
		{``, "", "", true},
	} {
		h := http.Header{}
		if tc.header != "" {
			h.Set("WWW-Authenticate", tc.header)
		}
		ch, ours := oauthChallenge(h)
		if ours != tc.ours || ch.Scheme != tc.scheme || ch.Param("resource_metadata") != tc.rm {
			t.Errorf("oauthChallenge(%q) = %+v, %v", tc.header, ch, ours)
		}
	}
	req, _ := http.NewRequest("POST", "http://127.0.0.1:9/mcp", nil)
	req.Header.Set("Authorization", "DPoP tok-123")
	if got := bearerToken(req); got != "tok-123" {
		t.Errorf("bearerToken with the DPoP scheme = %q", got)
	}
}
