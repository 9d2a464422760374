package gateway

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A token whose header names an algorithm that does not fit the key its
// kid names is refused with an error that says what the key is. Before,
// RS256 over an EC key read "the key for RS256 is not on " (no curve: RSA
// has none), which told the operator nothing.
func TestOAuthAlgorithmThatDoesNotFitTheKey(t *testing.T) {
	is := newTestIssuer(t)
	ec := newECKey(t, "e1")
	is.publish(ec)
	const aud = "mcpwire"
	check := newOAuthCheck(&OAuthOptions{Issuer: is.url, Audience: aud}, http.NotFoundHandler())
	for _, tc := range []struct{ alg, want string }{
		{"RS256", "the key for RS256 is an EC key"},
		{"ES384", "the key for ES384 is on P-256, not P-384"},
	} {
		forged := *ec
		forged.alg = tc.alg
		_, err := check.verify(context.Background(), forged.sign(t, is.claims(aud, time.Now())))
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s header over a P-256 key: %v, want %q", tc.alg, err, tc.want)
		}
		if err != nil && strings.HasSuffix(err.Error(), " ") {
			t.Errorf("%s: error ends in a blank: %q", tc.alg, err)
		}
	}
}

// A token without a kid, against a key set whose keys all have one, says
// so, rather than that the key "" is missing from the set.
func TestOAuthTokenWithoutKid(t *testing.T) {
	is := newTestIssuer(t)
	k := newRSAKey(t, "r1")
	is.publish(k)
	const aud = "mcpwire"
	check := newOAuthCheck(&OAuthOptions{Issuer: is.url, Audience: aud}, http.NotFoundHandler())
	nameless := *k
	nameless.kid = ""
	_, err := check.verify(context.Background(), nameless.sign(t, is.claims(aud, time.Now())))
	if err == nil || !strings.Contains(err.Error(), "names no key (its header has no kid)") {
		t.Errorf("a token without kid: %v, want it to say the token names no key", err)
	}
}
