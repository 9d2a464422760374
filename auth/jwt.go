package auth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"hash"
	"math/big"
	"strings"
)

// signingKey signs JWT client assertions (RFC 7523, private_key_jwt).
type signingKey struct {
	alg string // ES256, ES384 or RS256
	key crypto.Signer
}

// parsePrivateKey reads a PEM private key (PKCS #8 "PRIVATE KEY", SEC 1
// "EC PRIVATE KEY" or PKCS #1 "RSA PRIVATE KEY") and checks that it fits
// alg; an empty alg is chosen from the key (P-256: ES256, P-384: ES384,
// RSA: RS256). Errors describe the key, never its bytes.
func parsePrivateKey(pemBytes []byte, alg string) (*signingKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("the private key is not PEM (expected -----BEGIN PRIVATE KEY-----)")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("the PEM block is a %q, not a private key", clean(block.Type, 40))
	}
	if err != nil {
		return nil, fmt.Errorf("the private key does not parse: %v", err)
	}
	var natural string
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			natural = "ES256"
		case elliptic.P384():
			natural = "ES384"
		default:
			return nil, fmt.Errorf("the EC private key is on curve %s; ES256 (P-256) and ES384 (P-384) are supported", k.Curve.Params().Name)
		}
	case *rsa.PrivateKey:
		if k.N.BitLen() < 2048 {
			return nil, fmt.Errorf("the RSA private key has %d bits; at least 2048 are needed", k.N.BitLen())
		}
		natural = "RS256"
	default:
		return nil, fmt.Errorf("the private key is a %T; EC (P-256, P-384) and RSA keys are supported", key)
	}
	alg = strings.ToUpper(strings.TrimSpace(alg))
	if alg == "" {
		alg = natural
	}
	if alg != natural {
		return nil, fmt.Errorf("signing algorithm %s does not fit the key, which needs %s", clean(alg, 20), natural)
	}
	return &signingKey{alg: alg, key: key.(crypto.Signer)}, nil
}

// sign returns a compact JWS of claims.
func (k *signingKey) sign(claims map[string]any) (string, error) {
	return k.signWithHeader(map[string]any{"alg": k.alg, "typ": "JWT"}, claims)
}

// signWithHeader returns a compact JWS of claims under header, which
// names k's alg.
func (k *signingKey) signWithHeader(hdr map[string]any, claims map[string]any) (string, error) {
	header, err := json.Marshal(hdr)
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", fmt.Errorf("encoding the JWT claims: %v", err)
	}
	input := b64(header) + "." + b64(payload)
	var h hash.Hash
	var hf crypto.Hash
	switch k.alg {
	case "ES384":
		h, hf = sha512.New384(), crypto.SHA384
	default:
		h, hf = sha256.New(), crypto.SHA256
	}
	h.Write([]byte(input))
	digest := h.Sum(nil)
	var sig []byte
	switch key := k.key.(type) {
	case *ecdsa.PrivateKey:
		// JWS wants r and s as fixed-size big-endian integers (RFC 7518
		// section 3.4), not the ASN.1 that crypto.Signer produces.
		r, s, err := ecdsa.Sign(rand.Reader, key, digest)
		if err != nil {
			return "", fmt.Errorf("signing the JWT: %v", err)
		}
		size := (key.Curve.Params().BitSize + 7) / 8
		sig = append(fixed(r, size), fixed(s, size)...)
	case *rsa.PrivateKey:
		sig, err = rsa.SignPKCS1v15(rand.Reader, key, hf, digest)
		if err != nil {
			return "", fmt.Errorf("signing the JWT: %v", err)
		}
	}
	return input + "." + b64(sig), nil
}

func fixed(n *big.Int, size int) []byte {
	b := make([]byte, size)
	return n.FillBytes(b)
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
