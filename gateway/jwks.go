package gateway

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// jwksRefetchFloor is the least time between two fetches of the key set:
// tokens naming a kid nobody knows must not make the gateway hammer the
// authorization server.
const jwksRefetchFloor = 30 * time.Second

// jwksFetchTimeout bounds one fetch of the key set (metadata included),
// whatever client OAuthOptions gave.
const jwksFetchTimeout = 10 * time.Second

// maxJWKSBytes bounds a key set or metadata document read from the
// network.
const maxJWKSBytes = 1 << 20

// jwk is one key of a JWK set (RFC 7517), the members the check reads.
type jwk struct {
	Kty string `json:"kty"`
	Kid string `json:"kid"`
	Use string `json:"use"`
	Alg string `json:"alg"`
	N   string `json:"n"`
	E   string `json:"e"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
}

// parseJWKS reads a JWK set's signing keys by kid. Keys it cannot use
// (encryption keys, unknown types or curves) are skipped, not fatal: a
// set may hold keys for other parties.
func parseJWKS(b []byte) (map[string]crypto.PublicKey, error) {
	var set struct {
		Keys []jwk `json:"keys"`
	}
	if err := json.Unmarshal(b, &set); err != nil {
		return nil, errors.New("the JWK set is not a JSON object with a keys array")
	}
	keys := map[string]crypto.PublicKey{}
	for _, k := range set.Keys {
		if k.Use != "" && k.Use != "sig" {
			continue
		}
		if pub, err := k.publicKey(); err == nil {
			keys[k.Kid] = pub
		}
	}
	return keys, nil
}

func (k *jwk) publicKey() (crypto.PublicKey, error) {
	switch k.Kty {
	case "RSA":
		n, err1 := base64.RawURLEncoding.DecodeString(k.N)
		e, err2 := base64.RawURLEncoding.DecodeString(k.E)
		if err1 != nil || err2 != nil || len(e) == 0 || len(e) > 4 {
			return nil, errors.New("bad RSA key")
		}
		pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		if pub.N.BitLen() < 2048 || pub.E < 3 {
			return nil, errors.New("weak RSA key")
		}
		return pub, nil
	case "EC":
		var curve elliptic.Curve
		switch k.Crv {
		case "P-256":
			curve = elliptic.P256()
		case "P-384":
			curve = elliptic.P384()
		default:
			return nil, errors.New("unknown curve")
		}
		x, err1 := base64.RawURLEncoding.DecodeString(k.X)
		y, err2 := base64.RawURLEncoding.DecodeString(k.Y)
		size := (curve.Params().BitSize + 7) / 8
		if err1 != nil || err2 != nil || len(x) != size || len(y) != size {
			return nil, errors.New("bad EC key")
		}
		// The uncompressed point form makes the standard library check
		// that the point is on the curve.
		point := append(append([]byte{4}, x...), y...)
		pub, err := ecdsa.ParseUncompressedPublicKey(curve, point)
		if err != nil {
			return nil, errors.New("the EC point is not on its curve")
		}
		return pub, nil
	}
	return nil, errors.New("unknown key type")
}

// keySet is the authorization server's JWK set, fetched when first needed
// and again when a token names a kid it does not hold (key rotation), at
// most once per refetchFloor.
type keySet struct {
	client *http.Client
	issuer string
	floor  time.Duration
	now    func() time.Time
	warn   func(error) // told of each failed fetch; may be nil

	// fetching is held across a fetch: one at a time. It guards url.
	fetching sync.Mutex
	url      string // the JWKS; empty until the issuer's metadata named it

	// mu guards what a check reads. It is never held across a fetch, so
	// a token under a key already held is checked while a made-up kid's
	// fetch waits on the issuer.
	mu      sync.Mutex
	keys    map[string]crypto.PublicKey
	fetched time.Time
	failed  error // of the last fetch, nil when it succeeded
}

// key returns the key named kid ("" matches a set's one key without kid).
func (s *keySet) key(ctx context.Context, kid string) (crypto.PublicKey, error) {
	if k, err, done := s.held(kid); done {
		return k, err
	}
	s.fetching.Lock()
	defer s.fetching.Unlock()
	// Another caller's fetch may have brought the key, or counts for
	// the floor.
	if k, err, done := s.held(kid); done {
		return k, err
	}
	s.mu.Lock()
	s.fetched = s.now() // a failed fetch counts too, for the floor
	s.mu.Unlock()
	// The fetch is the key set's, not this request's: a caller that
	// hangs up must not make it fail (and, through the floor, refuse
	// every other caller's token), so it runs on its own bound.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), jwksFetchTimeout)
	defer cancel()
	keys, err := s.fetch(fctx)
	if err != nil {
		s.mu.Lock()
		s.failed = err
		held := s.keys != nil
		s.mu.Unlock()
		// Reported outside mu, which checks of held keys need.
		s.reportFailedFetch(err, held)
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = nil
	s.keys = keys
	if k, ok := s.keys[kid]; ok {
		return k, nil
	}
	return nil, missingKey(kid)
}

// missingKey is why a JWT naming kid has no key in the set held. A JWT
// may leave kid out (RFC 7515 4.1.4); the set's keys are then matched
// only by a key without one, and a set whose keys all have one has none.
func missingKey(kid string) error {
	if kid == "" {
		return errors.New("the JWT names no key (its header has no kid), and every key in the authorization server's key set has one")
	}
	return fmt.Errorf("the JWT's key %q is not in the authorization server's key set", clip(kid))
}

// held answers from what is held: the key, or, within the floor of the
// last fetch, why there is none. done is false when a fetch is due.
func (s *keySet) held(kid string) (crypto.PublicKey, error, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.keys[kid]; ok {
		return k, nil, true
	}
	// The floor holds after a failed fetch too, the first included: an
	// issuer that is down is not asked once per token.
	if !s.fetched.IsZero() && s.now().Sub(s.fetched) < s.floor {
		if s.keys == nil && s.failed != nil {
			return nil, fmt.Errorf("%w (tried again at most once every %s)", s.failed, s.floor), true
		}
		return nil, missingKey(kid), true
	}
	return nil, nil, false
}

// fetch reads the key set; s.fetching is held.
func (s *keySet) fetch(ctx context.Context) (map[string]crypto.PublicKey, error) {
	if s.url == "" {
		u, err := s.discover(ctx)
		if err != nil {
			return nil, err
		}
		s.url = u
	}
	var b []byte
	if err := s.getJSON(ctx, s.url, &b); err != nil {
		return nil, fmt.Errorf("fetching the key set: %w", err)
	}
	keys, err := parseJWKS(b)
	if err != nil {
		return nil, fmt.Errorf("the key set at %s: %w", redactURL(s.url), err)
	}
	return keys, nil
}

// discover reads jwks_uri from the issuer's metadata: RFC 8414's
// oauth-authorization-server document, then OpenID Connect's.
func (s *keySet) discover(ctx context.Context) (string, error) {
	iss, err := url.Parse(s.issuer)
	if err != nil {
		return "", fmt.Errorf("the issuer is not a URL: %w", err)
	}
	path := strings.TrimSuffix(iss.Path, "/")
	candidates := []string{
		iss.Scheme + "://" + iss.Host + "/.well-known/oauth-authorization-server" + path,
		iss.Scheme + "://" + iss.Host + path + "/.well-known/openid-configuration",
	}
	var errs []error
	for _, u := range candidates {
		var b []byte
		if err := s.getJSON(ctx, u, &b); err != nil {
			errs = append(errs, err)
			continue
		}
		var md struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		if json.Unmarshal(b, &md) != nil || md.JWKSURI == "" {
			errs = append(errs, fmt.Errorf("%s has no jwks_uri", redactURL(u)))
			continue
		}
		if md.Issuer != s.issuer {
			errs = append(errs, fmt.Errorf("%s names issuer %q, not the configured one", redactURL(u), clip(md.Issuer)))
			continue
		}
		return md.JWKSURI, nil
	}
	return "", fmt.Errorf("finding the issuer's jwks_uri: %w", errors.Join(errs...))
}

func (s *keySet) getJSON(ctx context.Context, u string, out *[]byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("%s: %v", redactURL(u), err)
	}
	if err := keyURLError(req.URL); err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		// The redirect's own reason says what to fix; other causes may
		// quote the URL, query and all, so are not repeated.
		var ue *url.Error
		if errors.Is(err, errKeyRedirect) && errors.As(err, &ue) {
			return fmt.Errorf("GET %s: %v", redactURL(u), ue.Err)
		}
		return newFetchFailure(u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", redactURL(u), resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxJWKSBytes+1))
	if err != nil {
		return fmt.Errorf("GET %s: reading: %v", redactURL(u), err)
	}
	if len(b) > maxJWKSBytes {
		return fmt.Errorf("GET %s: more than %d bytes", redactURL(u), maxJWKSBytes)
	}
	*out = b
	return nil
}

// redactURL drops a URL's user information and query, which may hold
// secrets, for messages.
func redactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(a URL that does not parse)"
	}
	p.User, p.RawQuery, p.Fragment = nil, "", ""
	return p.String()
}
