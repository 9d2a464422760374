package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// pkce is one PKCE pair (RFC 7636) with the S256 method.
type pkce struct {
	verifier  string // secret until the token request
	challenge string
}

// newPKCE makes a verifier of 43 characters (32 random bytes, base64url)
// and its S256 challenge.
func newPKCE() pkce {
	v := randomToken(32)
	sum := sha256.Sum256([]byte(v))
	return pkce{verifier: v, challenge: base64.RawURLEncoding.EncodeToString(sum[:])}
}

// randomToken returns n random bytes, base64url without padding. It is
// used for PKCE verifiers, state values and JWT ids.
func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}
