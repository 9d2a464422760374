package gateway

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"time"
)

// The package auth signs JWTs (client assertions, DPoP proofs) but never
// checks one: a resource server's side is the gateway's alone, so the
// verification lives here, on the standard library.

// jwtHeader is the part of a JWS header the check reads.
type jwtHeader struct {
	Alg string `json:"alg"`
	Kid string `json:"kid"`
	Typ string `json:"typ"`
}

// accessTokenTyp says whether typ may be an access token's. RFC 9068 asks
// for "at+jwt", but common authorization servers (Keycloak among them)
// write "JWT" or nothing, and refusing those would lock their users out;
// the audience check keeps their ID tokens out. A JWT of another kind
// that the same issuer signs (a logout token, a security event: "...+jwt")
// is refused. The "application/" prefix is optional and case does not
// count (RFC 7515, 4.1.9).
func accessTokenTyp(typ string) bool {
	t := strings.ToLower(typ)
	t = strings.TrimPrefix(t, "application/")
	return t == "" || t == "jwt" || t == "at+jwt"
}

// jwtClaims are the registered claims an access token is checked on.
type jwtClaims struct {
	Issuer    string    `json:"iss"`
	Subject   string    `json:"sub"`
	Audience  audiences `json:"aud"`
	ExpiresAt *numeric  `json:"exp"`
	NotBefore *numeric  `json:"nbf"`
	ClientID  string    `json:"client_id"`
}

// audiences is "aud": one string or an array of them (RFC 7519 4.1.3).
type audiences []string

func (a *audiences) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*a = audiences{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New(`"aud" is neither a string nor an array of strings`)
	}
	*a = many
	return nil
}

// numeric is a NumericDate: seconds since the epoch, maybe fractional.
type numeric float64

func (n numeric) time() time.Time {
	sec := float64(n)
	return time.Unix(int64(sec), int64((sec-float64(int64(sec)))*1e9))
}

// jwtAlgorithms are the signature algorithms accepted; "none" and the
// HMAC ones never are (a public key must not double as a shared secret).
var jwtAlgorithms = []string{"RS256", "ES256", "ES384"}

// parsedJWT is a compact JWS split and decoded, its signature unchecked.
type parsedJWT struct {
	header    jwtHeader
	claims    jwtClaims
	signed    string // header.payload, what the signature covers
	signature []byte
}

// parseJWT decodes a compact JWS. Its errors describe the token's shape,
// never its content.
func parseJWT(token string) (*parsedJWT, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, errors.New("the token is not a JWT (three dot-separated parts)")
	}
	var p parsedJWT
	if err := decodeSegment(parts[0], &p.header); err != nil {
		return nil, fmt.Errorf("the JWT header: %w", err)
	}
	if !slices.Contains(jwtAlgorithms, p.header.Alg) {
		return nil, fmt.Errorf("the JWT is signed with %q; accepted: %s", clip(p.header.Alg), strings.Join(jwtAlgorithms, ", "))
	}
	if !accessTokenTyp(p.header.Typ) {
		return nil, fmt.Errorf("the JWT's typ is %q, not an access token's (at+jwt or JWT)", clip(p.header.Typ))
	}
	if err := decodeSegment(parts[1], &p.claims); err != nil {
		return nil, fmt.Errorf("the JWT claims: %w", err)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return nil, errors.New("the JWT signature is not base64url")
	}
	p.signed, p.signature = parts[0]+"."+parts[1], sig
	return &p, nil
}

func decodeSegment(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return errors.New("not base64url")
	}
	if err := json.Unmarshal(b, v); err != nil {
		return errors.New("not a JSON object of the expected shape")
	}
	return nil
}

// clip shortens a peer's string for an error message, and keeps it to
// printable ASCII, as a header value must be.
func clip(s string) string {
	const most = 20
	cut := len(s) > most
	if cut {
		s = s[:most]
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '?'
		}
		return r
	}, s)
	if cut {
		s += "..."
	}
	return s
}

// verifySignature checks p's signature with key, which must fit the alg.
func (p *parsedJWT) verifySignature(key crypto.PublicKey) error {
	var digest []byte
	var hash crypto.Hash
	switch p.header.Alg {
	case "ES384":
		d := sha512.Sum384([]byte(p.signed))
		digest, hash = d[:], crypto.SHA384
	default:
		d := sha256.Sum256([]byte(p.signed))
		digest, hash = d[:], crypto.SHA256
	}
	bad := errors.New("the JWT signature does not verify")
	switch k := key.(type) {
	case *rsa.PublicKey:
		if p.header.Alg != "RS256" {
			return fmt.Errorf("the key for %s is an RSA key", p.header.Alg)
		}
		if rsa.VerifyPKCS1v15(k, hash, digest, p.signature) != nil {
			return bad
		}
	case *ecdsa.PublicKey:
		want := map[string]string{"ES256": "P-256", "ES384": "P-384"}[p.header.Alg]
		if want == "" {
			// An RS256 header naming an EC key: say so, rather than
			// name a curve that no RSA algorithm has.
			return fmt.Errorf("the key for %s is an EC key", p.header.Alg)
		}
		if k.Curve.Params().Name != want {
			return fmt.Errorf("the key for %s is on %s, not %s", p.header.Alg, k.Curve.Params().Name, want)
		}
		size := (k.Curve.Params().BitSize + 7) / 8
		// JWS carries r and s as fixed-size integers (RFC 7518 3.4).
		if len(p.signature) != 2*size {
			return bad
		}
		r := new(big.Int).SetBytes(p.signature[:size])
		s := new(big.Int).SetBytes(p.signature[size:])
		if !ecdsa.Verify(k, digest, r, s) {
			return bad
		}
	default:
		return fmt.Errorf("no usable key for %s", p.header.Alg)
	}
	return nil
}

// checkClaims checks issuer, audience and lifetime, allowing skew either
// way for clocks that disagree a little.
func (c *jwtClaims) check(issuer, audience string, now time.Time, skew time.Duration) error {
	if c.Issuer != issuer {
		return errors.New("the JWT is from another issuer")
	}
	if !slices.Contains(c.Audience, audience) {
		return errors.New("the JWT is for another audience")
	}
	if c.ExpiresAt == nil {
		return errors.New("the JWT has no expiry (exp)")
	}
	if !now.Before(c.ExpiresAt.time().Add(skew)) {
		return errors.New("the JWT has expired")
	}
	if c.NotBefore != nil && now.Add(skew).Before(c.NotBefore.time()) {
		return errors.New("the JWT is not valid yet (nbf)")
	}
	return nil
}
