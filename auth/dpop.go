package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// DPoPMode says when an Authorizer binds its tokens to a key with DPoP
// (RFC 9449, the MCP DPoP extension): a token stolen from the client, a
// log or a proxy is then useless without the key, which never leaves the
// process or its Store.
type DPoPMode string

const (
	// DPoPAuto (the default) uses DPoP with authorization servers that
	// advertise ES256 in dpop_signing_alg_values_supported.
	DPoPAuto DPoPMode = ""
	// DPoPOn sends DPoP proofs to every authorization server; one that
	// does not support DPoP answers with a Bearer token, which is then
	// used as such.
	DPoPOn DPoPMode = "on"
	// DPoPOff never uses DPoP.
	DPoPOff DPoPMode = "off"
)

// DPoP wire names (RFC 9449).
const (
	dpopScheme      = "DPoP"
	dpopHeader      = "DPoP"
	dpopNonceHeader = "DPoP-Nonce"
	dpopAlg         = "ES256"
	errUseDPoPNonce = "use_dpop_nonce"
	// maxNonceLen bounds a server's nonce; RFC 9449 sets no limit, and
	// nonces in the wild are tens of characters.
	maxNonceLen = 512
)

// useDPoP decides whether tokens from as are requested with DPoP.
func (a *Authorizer) useDPoP(as *serverMetadata) bool {
	switch a.opts.DPoP {
	case DPoPOff:
		return false
	case DPoPOn:
		return true
	}
	return slices.Contains(as.DPoPSigningAlgValuesSupported, dpopAlg)
}

// dpopKey is the key a DPoP-bound token is bound to: ECDSA P-256, a fresh
// one for every credential (never shared between servers or sign-ins).
type dpopKey struct {
	priv *ecdsa.PrivateKey
	jwk  map[string]string // the public key as a JWK (RFC 7517)
}

func newDPoPKey() (*dpopKey, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("auth: generating a DPoP key: %v", err)
	}
	return dpopKeyOf(k), nil
}

func dpopKeyOf(k *ecdsa.PrivateKey) *dpopKey {
	pub, _ := k.PublicKey.ECDH() // P-256 always converts
	raw := pub.Bytes()           // 0x04 || X || Y, 32 bytes each
	return &dpopKey{priv: k, jwk: map[string]string{
		"kty": "EC",
		"crv": "P-256",
		"x":   b64(raw[1:33]),
		"y":   b64(raw[33:65]),
	}}
}

// encode is the key's stored form: PKCS #8, base64url.
func (k *dpopKey) encode() (string, error) {
	der, err := x509.MarshalPKCS8PrivateKey(k.priv)
	if err != nil {
		return "", fmt.Errorf("auth: encoding the DPoP key: %v", err)
	}
	return b64(der), nil
}

// decodeDPoPKey reads a stored key. Errors never quote it.
func decodeDPoPKey(s string) (*dpopKey, error) {
	der, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, errors.New("the stored DPoP key is not base64url")
	}
	key, err := x509.ParsePKCS8PrivateKey(der)
	if err != nil {
		return nil, errors.New("the stored DPoP key is not a PKCS #8 private key")
	}
	ek, ok := key.(*ecdsa.PrivateKey)
	if !ok || ek.Curve != elliptic.P256() {
		return nil, errors.New("the stored DPoP key is not a P-256 key")
	}
	return dpopKeyOf(ek), nil
}

// thumbprint is the key's JWK SHA-256 thumbprint (RFC 7638), what a
// bound token's cnf.jkt names.
func (k *dpopKey) thumbprint() string {
	// The members in lexicographic order, no whitespace (RFC 7638 §3.3).
	s := fmt.Sprintf(`{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}`, k.jwk["x"], k.jwk["y"])
	sum := sha256.Sum256([]byte(s))
	return b64(sum[:])
}

// proof makes a DPoP proof (RFC 9449 section 4.2) for a request with
// method htm to target, carrying the server's nonce when there is one and,
// for a request to the resource server, ath (the hash of the access
// token it goes with). The jti is random: every proof is fresh.
func (k *dpopKey) proof(htm string, target *url.URL, nonce, accessToken string, now time.Time) (string, error) {
	claims := map[string]any{
		"jti": randomToken(16),
		"htm": htm,
		"htu": htu(target),
		"iat": now.Unix(),
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = b64(sum[:])
	}
	s := &signingKey{alg: dpopAlg, key: k.priv}
	return s.signWithHeader(map[string]any{"typ": "dpop+jwt", "alg": dpopAlg, "jwk": k.jwk}, claims)
}

// htu is the proof's target URI: the request URI without query and
// fragment (RFC 9449 section 4.2), and without userinfo.
func htu(u *url.URL) string {
	c := url.URL{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Host), Path: u.Path, RawPath: u.RawPath}
	return c.String()
}

// validNonce reports whether s is a nonce as RFC 9449 defines it
// (1*NQCHAR: printable ASCII without the double quote and backslash),
// within a sane length.
func validNonce(s string) bool {
	if s == "" || len(s) > maxNonceLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// replyNonce returns the DPoP-Nonce of a reply when it carries exactly
// one valid nonce.
func replyNonce(h http.Header) (string, bool) {
	v := h.Values(dpopNonceHeader)
	if len(v) != 1 || !validNonce(v[0]) {
		return "", false
	}
	return v[0], true
}

// nonceChallenge reports the nonce of a resource server's 401 that asks
// for one (RFC 9449 section 9): a DPoP challenge with
// error="use_dpop_nonce" and a DPoP-Nonce header.
func nonceChallenge(h http.Header) (string, bool) {
	asks := false
	for _, c := range ParseChallenges(h.Values("WWW-Authenticate")) {
		if strings.EqualFold(c.Scheme, dpopScheme) && c.Param("error") == errUseDPoPNonce {
			asks = true
			break
		}
	}
	if !asks {
		return "", false
	}
	return replyNonce(h)
}

// proofNonce reads the nonce claim of a proof this client made (it is
// our own output, so a failure just means "none").
func proofNonce(proof string) string {
	parts := strings.Split(proof, ".")
	if len(parts) != 3 {
		return ""
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var c struct {
		Nonce string `json:"nonce"`
	}
	json.Unmarshal(raw, &c)
	return c.Nonce
}

// nonceFor returns the last nonce the server at u's origin handed out.
func (a *Authorizer) nonceFor(u *url.URL) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.nonces[originOf(u).String()]
}

// setNonce keeps a server's nonce for its origin. Nonces are short-lived
// and not stored; only the servers this Authorizer talks to (the MCP
// server and its authorization server) are ever keyed here.
func (a *Authorizer) setNonce(u *url.URL, nonce string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.nonces == nil {
		a.nonces = map[string]string{}
	}
	if len(a.nonces) >= 8 {
		clear(a.nonces)
	}
	a.nonces[originOf(u).String()] = nonce
}

// keyFor returns the parsed key of a stored token, parsing it once.
func (a *Authorizer) keyFor(encoded string) (*dpopKey, error) {
	a.mu.Lock()
	if a.dpopEncoded == encoded && a.dpopKey != nil {
		k := a.dpopKey
		a.mu.Unlock()
		return k, nil
	}
	a.mu.Unlock()
	k, err := decodeDPoPKey(encoded)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.dpopEncoded, a.dpopKey = encoded, k
	a.mu.Unlock()
	return k, nil
}

// setDPoP prepares req to carry a DPoP-bound token: the DPoP scheme and a
// fresh proof with the server's current nonce.
func (a *Authorizer) setDPoP(req *http.Request, tok *Token) error {
	k, err := a.keyFor(tok.DPoPKey)
	if err != nil {
		return fmt.Errorf("auth: the token for %s is bound to a key that cannot be used (%v); sign in again: mcpwire logout, then login", a.redacted, err)
	}
	proof, err := k.proof(req.Method, req.URL, a.nonceFor(req.URL), tok.AccessToken, a.now())
	if err != nil {
		return fmt.Errorf("auth: making a DPoP proof: %v", err)
	}
	req.Header.Set("Authorization", dpopScheme+" "+tok.AccessToken)
	req.Header.Set(dpopHeader, proof)
	return nil
}

// nonceRetry handles a resource server's 401 that asks for a DPoP nonce
// (RFC 9449 section 9): handled is true when it did, and retry says to
// send the request again, with a proof carrying the nonce. A server that
// refuses the nonce it just handed out is not retried (it would loop).
func (a *Authorizer) nonceRetry(resp *http.Response) (retry, handled bool) {
	if resp.StatusCode != http.StatusUnauthorized || resp.Request == nil {
		return false, false
	}
	nonce, ok := nonceChallenge(resp.Header)
	if !ok {
		return false, false
	}
	proof := resp.Request.Header.Get(dpopHeader)
	if proof == "" || proofNonce(proof) == nonce {
		return false, proof != ""
	}
	a.setNonce(resp.Request.URL, nonce)
	return true, true
}
