package gateway

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"
	"time"
)

// FuzzParseJWT: any token from a host gets an error or a parse, never a
// panic; and whatever parses does not verify against a key that did not
// sign it.
func FuzzParseJWT(f *testing.F) {
	f.Add("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJ4In0.AAAA")
	f.Add("eyJhbGciOiJub25lIn0.e30.")
	f.Add("a.b.c")
	f.Add("eyJhbGciOiJSUzI1NiIsImtpZCI6IlxuIn0.eyJhdWQiOlsxXX0.")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, token string) {
		p, err := parseJWT(token)
		if err != nil {
			return
		}
		if p.verifySignature(&key.PublicKey) == nil {
			t.Fatalf("%q verified against a fresh key", token)
		}
		_ = p.claims.check("iss", "aud", time.Now(), clockSkew)
		if c := clip(p.header.Kid); len(c) > 23 {
			t.Fatalf("clip(%q) = %q", p.header.Kid, c)
		}
	})
}

// FuzzParseJWKS: any key set an issuer serves gets an error or keys,
// never a panic.
func FuzzParseJWKS(f *testing.F) {
	f.Add(`{"keys":[{"kty":"EC","crv":"P-256","kid":"a","x":"AA","y":"AA"}]}`)
	f.Add(`{"keys":[{"kty":"RSA","kid":"r","n":"AQAB","e":"AQAB"},{"kty":"oct","k":"x"}]}`)
	f.Add(`{"keys":[{"kty":"RSA","e":"AQABAQABAQ"}]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, set string) {
		keys, err := parseJWKS([]byte(set))
		if err != nil && keys != nil {
			t.Fatal("keys with an error")
		}
	})
}
